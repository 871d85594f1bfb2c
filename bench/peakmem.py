#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""peakmem.py -- runs a command and reports its wall time and peak memory.

  peakmem.py [--stdout FILE] [--stdin FILE] [--interval SECONDS] -- COMMAND ARGS...

Prints one line, `seconds rss_anon_peak_kib rss_peak_kib exit_status`, on standard output (the
command's own standard output goes to --stdout, default /dev/null):
  - rss_peak_kib: the peak resident set, file-backed pages of mapped files included (VmHWM, the
    kernel's own high-water mark, as last sampled; ru_maxrss would count this process's memory,
    which the child shares until its exec);
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


def status_kib(pid):
    """(RssAnon, VmHWM) of pid in KiB, zeros once it is gone."""
    anon = hwm = 0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    anon = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    hwm = int(line.split()[1])
    except (OSError, ValueError):
        pass
    return anon, hwm


def run(cmd, stdout="/dev/null", interval=0.002, stdin=None):
    """(seconds, rss_anon_peak_kib, rss_peak_kib, exit_status) of cmd."""
    # posix_spawn (vfork-like in glibc): this process waits until the child has exec'ed, so no
    # sample sees a copy of this interpreter's memory before the exec.
    actions = [(os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
    if stdin:
        actions.append((os.POSIX_SPAWN_OPEN, 0, stdin, os.O_RDONLY, 0))
    t0 = time.perf_counter()
    pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=actions)
    peak = hwm = 0
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        anon, h = status_kib(pid)
        peak, hwm = max(peak, anon), max(hwm, h)
        time.sleep(interval)
    dt = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    return dt, peak, hwm, code


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
