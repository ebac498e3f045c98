/* whymap.h — a generation's map of waits (whyabi.h: keys and values as the eBPF programs wrote
 * them) turned into the model's entries (latency.h). Pure code: the loader (whybpf.c) reads the
 * map, the unit tests give it entries of their own. */
#ifndef DELAYTOP_WHYMAP_H
#define DELAYTOP_WHYMAP_H

#include <stddef.h>

#include "latency.h"
#include "whyabi.h"

/* Appends the n entries (keys[i], vals[i]) to b, each with its count of waits (the sum of its
 * slots). An entry of no task (tid 0), of a kind this build does not know, or without a wait is
 * left out; returns how many were. */
size_t whymap_decode(const struct why_key *keys, const struct why_val *vals, size_t n, struct lat_batch *b);

#endif
