#!/usr/bin/env python3
"""stopwatch.py — how long a program takes to end after a signal (tests/*/stop_signal.sh).

  stopwatch.py [--when first|random] [--gap NOTE] SIGNAL -- COMMAND...
      starts COMMAND (output to /dev/null), waits for its first reading to be out (its main
      thread in its wait: poll or ppoll, the only poll delaytop's main thread makes), or with
      --gap until the file NOTE exists (tests/waitgap.c: the main thread is held between its look
      at whether to stop and its wait); with --when random then a random 0.1 to 1.5 s more; sends
      SIGNAL and prints "MS STATUS": milliseconds from the signal to the exit and the exit status
      (a signal's as 128 + number). A program still running 2 s after the signal is killed and
      printed as "timeout -".
  stopwatch.py --pid PID [--when ...] [--gap NOTE] SIGNAL
      the same for a running process (not a child): waits as above, signals, prints "MS -" once
      /proc/PID is gone or a zombie, or "timeout -".
  stopwatch.py --free-port
      prints a free TCP port on 127.0.0.1.
"""
import os
import random
import signal
import socket
import subprocess
import sys
import time

WAIT_SYSCALLS = {"7", "271"}  # x86_64 poll, ppoll
TIMEOUT_S = 2.0


def in_wait(pid):
    try:
        with open(f"/proc/{pid}/syscall") as f:
            return f.read().split()[0] in WAIT_SYSCALLS
    except (OSError, IndexError):
        return False


def gone(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def wait_ready(pid, gap, alive):
    end = time.monotonic() + 20
    seen = 0
    while time.monotonic() < end and alive():
        if gap:
            if os.path.exists(gap):
                return True
        else:
            seen = seen + 1 if in_wait(pid) else 0
            if seen >= 3:  # in the wait, not passing through
                return True
        time.sleep(0.01)
    return False


def main(argv):
    if argv[:1] == ["--free-port"]:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        print(s.getsockname()[1])
        return 0
    pid = when = gap = None
    while argv and argv[0].startswith("--"):
        opt, argv = argv[0], argv[1:]
        if opt == "--":
            break
        val, argv = argv[0], argv[1:]
        if opt == "--pid":
            pid = int(val)
        elif opt == "--when":
            when = val
        elif opt == "--gap":
            gap = val
    sig = getattr(signal, "SIG" + argv[0])
    child = None
    if pid is None:
        cmd = argv[argv.index("--") + 1:]
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pid = child.pid
        alive = lambda: child.poll() is None
    else:
        alive = lambda: not gone(pid)
    if not wait_ready(pid, gap, alive):
        print("notready -")
        if child and child.poll() is None:
            child.kill()
            child.wait()
        return 0
    if when == "random":
        time.sleep(random.uniform(0.1, 1.5))
    t0 = time.monotonic()
    os.kill(pid, sig)
    if child:
        try:
            rc = child.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            print("timeout -")
            return 0
        ms = (time.monotonic() - t0) * 1000
        print(f"{ms:.1f} {128 - rc if rc < 0 else rc}")
        return 0
    while not gone(pid):
        if time.monotonic() - t0 > TIMEOUT_S:
            print("timeout -")
            return 0
        time.sleep(0.0005)
    print(f"{(time.monotonic() - t0) * 1000:.1f} -")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
