#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""peakmem.py -- runs a command and reports its wall time and peak memory.

  peakmem.py [--stdout FILE] [--interval SECONDS] -- COMMAND ARGS...

Prints one line, `seconds rss_anon_peak_kib rss_peak_kib exit_status`, on standard output (the
command's own standard output goes to --stdout, default /dev/null):
  - rss_peak_kib: the peak resident set (ru_maxrss from wait4: exact, file-backed pages of mapped
    files included);
  - rss_anon_peak_kib: the peak of RssAnon in /proc/PID/status, sampled every --interval seconds
    (default 0.002): private memory only -- pages of mapped files, input or output, are page
    cache the kernel can reclaim and are not counted.  A sample is taken of the largest values
    the process shows, so a peak shorter than the interval may be missed.
Used by the CLI tests (tests/cli/files.sh) and the file workloads of the benchmark
(bench/files.py).
"""
import os
import sys
import time


def rss_anon_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def run(cmd, stdout="/dev/null", interval=0.002, stdin=None):
    """(seconds, rss_anon_peak_kib, rss_peak_kib, exit_status) of cmd."""
    out = os.open(stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    inp = os.open(stdin, os.O_RDONLY) if stdin else None
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(out, 1)
            if inp is not None:
                os.dup2(inp, 0)
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    os.close(out)
    if inp is not None:
        os.close(inp)
    peak = 0
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        peak = max(peak, rss_anon_kib(pid))
        time.sleep(interval)
    dt = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    return dt, peak, usage.ru_maxrss, code


def main(argv):
    stdout, interval, stdin = "/dev/null", 0.002, None
    while argv and argv[0] != "--":
        if argv[0] == "--stdout":
            stdout = argv[1]
            argv = argv[2:]
        elif argv[0] == "--stdin":
            stdin = argv[1]
            argv = argv[2:]
        elif argv[0] == "--interval":
            interval = float(argv[1])
            argv = argv[2:]
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if not argv[1:]:
        print(__doc__, file=sys.stderr)
        return 2
    dt, anon, rss, code = run(argv[1:], stdout, interval, stdin)
    print(f"{dt:.4f} {anon} {rss} {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
