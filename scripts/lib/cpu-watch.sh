# SPDX-License-Identifier: Apache-2.0
# Sourced by the long-run scripts (fuzz.sh, fuzz-python.sh): cpu_watch PID LOG appends PID's CPU
# time (user + system, in seconds) to LOG every 5 minutes and a last reading (at most 1 s old)
# when PID ends, so that a run ended from outside (SIGKILL, a session's stop) still leaves its
# figure for the fuzzing ledger.  Run it in the background; it returns when PID is gone.
cpu_of() { awk -v t="$(getconf CLK_TCK)" '{print ($14 + $15) / t}' "/proc/$1/stat" 2>/dev/null; }
cpu_watch() {
  local pid=$1 log=$2 last="" n=0 c
  while kill -0 "$pid" 2>/dev/null; do
    c=$(cpu_of "$pid") && [ -n "$c" ] && last=$c
    [ $((n % 300)) -eq 0 ] && [ -n "$last" ] && echo "$(date +%FT%T) pid $pid cpu_seconds $last" >>"$log"
    n=$((n + 1))
    sleep 1
  done
  echo "$(date +%FT%T) pid $pid cpu_seconds $last (last reading)" >>"$log"
}
