# slurm_helper.bash - a one-node Slurm on localhost (slurmctld, slurmd,
# munged) started from a temporary configuration for a test file and
# stopped afterwards (tests/slurm.bats, tests/shards.bats).  A file calls
# slurm_setup_file in its setup_file (it skips the file where Slurm cannot
# be installed or started) and slurm_stop in its teardown_file.

PKGS="slurmctld slurmd slurm-client munge"

# Slurm's packages, installed when missing if we are root (Debian 12)
have_slurm() {
    local p missing=""
    for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing+=" $p"; done
    [ -z "$missing" ] && return 0
    [ "$(id -u)" = 0 ] || { echo "not root: cannot install$missing"; return 1; }
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends $missing) >/dev/null 2>&1 ||
        { echo "apt-get could not install$missing"; return 1; }
}

# $1 listens on 127.0.0.1
port_busy() { (exec 2>/dev/null; echo > "/dev/tcp/127.0.0.1/$1"); }

# poll COMMAND until it prints PATTERN (a grep -E pattern), for up to $1 seconds
poll() {
    local secs=$1 pat=$2 i
    shift 2
    for ((i = 0; i < secs * 5; i++)); do
        "$@" 2>/dev/null | grep -q -E "$pat" && return 0
        sleep 0.2
    done
    return 1
}

# SLURM_WHY: the last errors a daemon logged (its own reason for not coming
# up), on one line; the harmless ones of every start left out
why_not() {
    local log=$1 name=$2 lines
    lines=$(grep -E 'error|fatal|Error' "$log" 2>/dev/null |
        grep -v -E 'pmix|MPI|MailProg|state file|NOTE: Trying|differs from hardware' |
        tail -n 3 | sed 's/^\[[^]]*\] //' | paste -s -d ';' -)
    SLURM_WHY="$name did not come up: ${lines:-no message in $log}"
}

# slurmd -N rftnode, with the cgroups it insists on (even with the linuxproc
# and none plugins): where /sys/fs/cgroup has none mounted (a chroot, a bare
# container) they are mounted for slurmd alone, in a mount namespace of its
# own, as /proc/self/cgroup names them (v1 hierarchies, or the v2 one); the
# machine's mounts do not change.
slurmd_start() {
    if [ -n "$(awk '$2 == "/sys/fs/cgroup" || $2 ~ "^/sys/fs/cgroup/"' /proc/self/mounts)" ]; then
        slurmd -N rftnode
        return
    fi
    unshare --mount --propagation unchanged sh -c '
        set -e
        if grep -q "^0::" /proc/self/cgroup && [ "$(wc -l < /proc/self/cgroup)" = 1 ]; then
            mount -t cgroup2 cgroup2 /sys/fs/cgroup
        else
            mount -t tmpfs cgroup /sys/fs/cgroup
            for c in $(sed -n "s/^[0-9]*:\([^:][^:]*\):.*/\1/p" /proc/self/cgroup); do
                d=${c#name=}
                mkdir -p "/sys/fs/cgroup/$d"
                mount -t cgroup -o "$c" cgroup "/sys/fs/cgroup/$d"
            done
        fi
        exec slurmd -N rftnode'
}

# Start the cluster, or fail with the daemon's own words in SLURM_WHY
slurm_start() {
    BASE=$(mktemp -d /tmp/rft-slurm.XXXXXX)
    chmod 755 "$BASE"       # munged refuses a socket in a folder others cannot enter
    mkdir -p "$BASE"/{etc,munge,spool,state,log}
    chmod 755 "$BASE/munge"
    mungekey --create --keyfile="$BASE/munge/munge.key"
    # --origin: a machine whose name does not resolve (no /etc/hosts entry)
    # makes munged warn and fall back to the null address
    munged --key-file="$BASE/munge/munge.key" --socket="$BASE/munge/munge.socket" \
        --pid-file="$BASE/munge/munged.pid" --log-file="$BASE/munge/munged.log" \
        --seed-file="$BASE/munge/munged.seed" --origin=127.0.0.1 ||
        { why_not "$BASE/munge/munged.log" munged; return 1; }
    local port=6817
    while port_busy $port || port_busy $((port + 1)); do port=$((port + 2)); done
    local mem
    mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
    cat > "$BASE/etc/slurm.conf" <<EOF
ClusterName=rfttest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$BASE/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
ReturnToService=2
StateSaveLocation=$BASE/state
SlurmdSpoolDir=$BASE/spool
SlurmctldPidFile=$BASE/slurmctld.pid
SlurmdPidFile=$BASE/slurmd.pid
SlurmctldLogFile=$BASE/log/slurmctld.log
SlurmdLogFile=$BASE/log/slurmd.log
NodeName=rftnode NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=rftnode Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF="$BASE/etc/slurm.conf"
    slurmctld || { why_not "$BASE/log/slurmctld.log" slurmctld; return 1; }
    poll 30 'UP' scontrol ping || { why_not "$BASE/log/slurmctld.log" slurmctld; return 1; }
    slurmd_start || { why_not "$BASE/log/slurmd.log" slurmd; return 1; }
    poll 30 '^idle' sinfo -h -N -o %T || { why_not "$BASE/log/slurmd.log" slurmd; return 1; }
}

# a daemon gone (a zombie counts as gone)
gone() { [ ! -e /proc/$1/stat ] || [ "$(awk '{ print $3 }' /proc/$1/stat)" = Z ]; }

slurm_stop() {
    [ -n "${BASE:-}" ] || return 0
    local f p i
    if [ -f "$BASE/slurmctld.pid" ] && ! gone "$(cat "$BASE/slurmctld.pid")"; then
        squeue -h -o %i | xargs -r scancel
        for ((i = 0; i < 150; i++)); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
    fi
    for f in slurmd.pid slurmctld.pid munge/munged.pid; do
        [ -f "$BASE/$f" ] || continue
        p=$(cat "$BASE/$f")
        kill -TERM "$p" 2>/dev/null || :
        for ((i = 0; i < 100; i++)); do gone "$p" && break; sleep 0.1; done
    done
    rm -rf "$BASE"
}

# Start the cluster for a test file, or skip the file saying why
slurm_setup_file() {
    local why
    if ! why=$(have_slurm); then
        skip "Slurm (slurm-wlm, munge) is not installed and cannot be: $why"
    fi
    if ! slurm_start; then
        slurm_stop
        skip "a one-node Slurm cannot start here: $SLURM_WHY"
    fi
    export BASE SLURM_CONF
}

# wait until the jobs ARRAY and COLLECT have left the queue (done, failed or
# cancelled), at most 120 s
wait_jobs() {
    local i
    for ((i = 0; i < 600; i++)); do
        [ -z "$(squeue -h -j "$1,$2" 2>/dev/null)" ] && return 0
        sleep 0.2
    done
    return 1
}
