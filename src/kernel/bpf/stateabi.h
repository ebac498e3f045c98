/* stateabi.h — the record the task iterator (state.bpf.c) writes per task and its loader
 * (stateiter.c) reads. Plain C types only: the same header is compiled for the BPF target and
 * for the host. */
#ifndef DELAYTOP_STATEABI_H
#define DELAYTOP_STATEABI_H

struct state_rec {
	unsigned int tid; /* the task, global id; 0: the header, state its reader's pid namespace level */
	char state; /* the letter /proc shows */
	char pad[3];
};

#endif
