#!/usr/bin/env python3
"""timed_run.py - runs one command RUNS times, its output discarded, and
prints one line: the median elapsed seconds (wall clock, perf_counter: no
10 ms steps), the median CPU seconds (user + system of the child, from
wait4's rusage in microseconds), the largest peak RSS in KiB over the runs
and the exit status of the last run:

    ELAPSED CPU MAXRSS_KIB STATUS

The peak RSS comes from GNU time (/usr/bin/time -f %M) run between this
script and the command: a child forked from Python and exec'd keeps
Python's own peak (about 10 MB) as its ru_maxrss, one forked from GNU time
keeps only time's (about 2 MB, below any run of the tools).  Its cost, a
fork and an exec, is in every run alike, the start-up run included.

For tests/bench_scale.sh (make bench).  Usage: timed_run.py RUNS CMD [ARG...]
"""
import os
import statistics
import sys
import tempfile
import time


def one(argv, rss_file):
    argv = ["/usr/bin/time", "-f", "%M", "-o", rss_file] + argv
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    elapsed = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    with open(rss_file) as f:
        lines = f.read().split()
    return elapsed, ru.ru_utime + ru.ru_stime, int(lines[-1]), code


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: timed_run.py RUNS CMD [ARG...]\n")
        return 2
    runs = max(1, int(sys.argv[1]))
    with tempfile.NamedTemporaryFile() as t:
        res = [one(sys.argv[2:], t.name) for _ in range(runs)]
    print("%.6f %.6f %d %d" % (statistics.median(r[0] for r in res),
                               statistics.median(r[1] for r in res),
                               max(r[2] for r in res), res[-1][3]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
