# Sourced by bin/start: how the quick start stops what it started (and by its test).
#   pids:      the processes bin/start started (workers, cron, web), stopped first
#   redis_pid: the private Redis (bin/private-redis, in a session of its own), stopped last
# Everything but Redis first. RQ's workers finish the
# job they hold within STOP_GRACE seconds (10); then their work horses (which leave the process
# group, so Ctrl-C does not reach them) and whatever is left are killed, and a run cut off is
# marked failed by the periodic check, to be retried. The private Redis goes last, so no worker
# loses it while stopping.
alive() { for pid in "$@"; do kill -0 "$pid" 2>/dev/null && return 0; done; return 1; }
cleanup() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq "$(( ${STOP_GRACE:-10} * 10 ))"); do alive "${pids[@]}" || break; sleep 0.1; done
  for pid in "${pids[@]}"; do pkill -KILL -P "$pid" 2>/dev/null || true; kill -KILL "$pid" 2>/dev/null || true; done
  wait "${pids[@]}" 2>/dev/null || true
  if [ -n "$redis_pid" ]; then kill -TERM "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; fi
}
