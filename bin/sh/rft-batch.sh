#!/bin/sh
# rft-batch - one study (aging, undervolting, healing, or a pipeline of your
# own) over many traces, on this machine with make -j or on a Slurm cluster
# as a job array, then the cross-trace table of rft-collect(1).
#
# The batch folder DIR holds everything: a Makefile with the study's
# pipelines (the same as examples/*.sh run), traces.tsv (label and path of
# each trace), traces/LABEL, a folder per trace with its results and its
# log, the collected tables and charts, and for Slurm the scripts it
# submitted.  See rft-batch(1).
#
# No string of the user's is written into the Makefile: it names the traces
# by their labels (letters, digits, _.+-) and the trace folders relative to
# the batch folder; the scripts for Slurm quote the folder and the sbatch
# options for sh; a control character (a newline would start a line of
# make or sh) is refused everywhere.
set -eu
prog=rft-batch
# --help: the synopsis of rft-batch(1), a one-line description, every option
usage="rft-batch [-j N] [--study NAME | --pipeline STAGES] [-r once|N|steady] [--shards N [--split auto|yes|no]]
          [--manifest FILE]... [--input-format m2s|evg|gem5|nvbit] [--force]
          [--slurm [--partition P] [--time T] [--mem M] [--sbatch-args ARGS]]
          -o DIR [TRACE | FOLDER]...
rft-batch --status DIR
rft-batch --list
One study over many traces, on this machine or on a Slurm cluster, and the cross-trace table

  -o, --output DIR       The batch folder (made if need be)
  -j, --jobs N           At most N jobs at once (default: the number of processors, nproc(1)); with --slurm, the CPUs and jobs of each task (default 1)
      --study NAME       aging, undervolt or healing
      --pipeline STAGES  A study of your own (see Studies)
  -r, --repeat RUNS      The aging study's kernels run again and again (steady, the default: rft-alloc --runs steady), once, or N times in a row (rft-repeat); recorded in the folder's Makefile, so a folder holds one
      --shards N         The study made in N (2 or more) shards of each trace: of its slices (aging, each reading its file from rft-split) or its compute units (undervolt, healing; default: see Studies); recorded in the folder's Makefile
      --split WHEN       With --shards: cut each trace once into its shards' files (rft-split) that the shards read (yes), or let every shard read the whole trace (no); auto (the default): yes when the shards outnumber the jobs that run them (-j), no when every shard has a job of its own or with --slurm; recorded in the folder's Makefile
  -m, --manifest FILE    Traces listed in FILE, one a line: its path (relative to the manifest's folder), and optionally a tab and its label; blank lines and lines starting with # are skipped
      --input-format F   Take the raw simulator logs of format F (m2s, evg, gem5 or nvbit) found in a folder as traces too, rft-decode(1) given --input-format F for them; without it a folder gives only its rft streams and text and CSV traces
      --force            Redo every result of the traces given
      --slurm            Submit to Slurm instead of running here
      --partition P      The Slurm partition of both jobs (sbatch --partition)
      --time T           The time limit of both jobs (sbatch --time)
      --mem M            The memory of a node for both jobs (sbatch --mem)
      --sbatch-args ARGS  More sbatch options for both jobs, as words split as sh splits them, with its quotes and backslashes (nothing expanded)
      --status DIR       Report on a batch folder (see Status)
      --list             The studies, one a line
      --quiet            No progress on standard error (shown only on a terminal)
  -h, --help             Print this help and exit
      --version          Print the version and exit"

die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }
usage_error() {
    printf '%s: %s (see %s --help)\n' "$prog" "$1" "$prog" >&2
    exit 2
}
# 'text' for sh, any character allowed
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
# Is there a control character in $1 (a newline, a tab, an escape)?
has_cntrl() { case $1 in *[[:cntrl:]]*) return 0 ;; esac; return 1; }
# A string of the command line with a control character: a usage error.
plain() {   # WHAT STRING
    if has_cntrl "$2"; then
        usage_error "$1: a control character (a newline, a tab, ...) is not allowed in '$(printf '%s' "$2" | tr '[:cntrl:]' '?')'"
    fi
}

# the rft programs beside this one come first
bindir=$(cd "$(dirname "$0")" && pwd)
PATH=$bindir:$PATH
export PATH

# ---- the studies -------------------------------------------------------------
# A study is one entry below: its description, the result files every trace
# gets, the columns of its table, its charts, and the make rules that make
# the results from %/trace.rft (the decoded trace; % is the trace's folder,
# $* in a recipe).  LOG sends a stage's messages to the trace's log, SAVE
# writes standard output under a temporary name renamed when complete.
studies="aging undervolt healing"

study_about() {
    case $1 in
    aging) echo "seed 002 section 6: baseline, RC, RAR, RC+RAR, WC, ARGO (examples/aging.sh)" ;;
    undervolt) echo "seed 001: DC-Patch under the common, clustered, dispersed fault maps (examples/undervolt.sh)" ;;
    healing) echo "seed 003: SC healing, dVth of the degraded SC and run-time cost for 1-8 degraded SCs (at most a slice's SCs less one: 1-7 on an NVIDIA sub-partition of 8 SCs, an SC being a lane of each 8-lane block)" ;;
    pipeline) echo "rft-decode TRACE | $pipeline" ;;
    esac
}
# the same in the Makefile's first line: no string of the user's
study_title() {
    case $1 in
    pipeline) echo "a pipeline of stages (the rule of %/result.tsv)" ;;
    *) study_about "$1" ;;
    esac
}

study_results() {
    case $1 in
    aging) echo "vth.tsv energy.tsv" ;;
    undervolt) echo "energy.tsv writes.tsv" ;;
    healing) echo "cost.tsv units.tsv" ;;
    pipeline) echo "result.tsv" ;;
    esac
}

study_columns() {
    case $1 in
    aging) echo "longest_0%,longest_0_red%,longest_1%,longest_1_red%,dvth_t0_norm,dvth_t0_norm_red%,dvth_t1_norm,dvth_t1_norm_red%,delay_eq3%,saving%,slice_slowdown_replay%,slice_slowdown_bound%" ;;
    undervolt) echo "total,vs_conv%,vs_smooth%,slowdown_replay%,slowdown_bound%,normal%,patch_faulty%,patch_reliable%,lds%,mispred%,ldsload%,lds_peak_B" ;;
    healing) echo "cycles_traced,cycles_replayed,slowdown_replay%,cycles_upper,slowdown_bound%,dvth_naive_mV,dvth_healed_mV,dvth_reduction%" ;;
    pipeline) echo "all" ;;
    esac
}

# The charts: "FILE|rft-collect options|rft-plot options" a line.  A
# breakdown (the longest cell's '0' / '1' / off, energy by component) is a
# stacked bar per scheme, the schemes of a trace in a cluster (seed 002 Figs.
# 13, 16, 21; seed 001 Figs. 5, 8); one value per scheme, grouped bars.
study_figures() {
    case $1 in
    aging) cat <<'EOF'
fig13-longest0|--columns longest_0%,longest_0_cell_1%,longest_0_cell_off%|--kind stack --group trace -x scheme --ymin 0 --ymax 100 --ylabel "% of the window, cell of the longest '0'" --title "Longest '0' duty cycle of a cell: its '0', '1' and off (seed 002 Fig. 13)"
fig16-longest1|--columns longest_1%,longest_1_cell_0%,longest_1_cell_off%|--kind stack --group trace -x scheme --ymin 0 --ymax 100 --ylabel "% of the window, cell of the longest '1'" --title "Longest '1' duty cycle of a cell: its '1', '0' and off (seed 002 Fig. 16)"
fig19-dvth-t0|--pivot dvth_t0_norm|--kind bar -x trace --ymin 0 --ymax 1 --ylabel "dVth of T0 / its maximum" --title "Highest dVth from '0' duty (seed 002 Fig. 19)"
fig19-dvth-t1|--pivot dvth_t1_norm|--kind bar -x trace --ymin 0 --ymax 1 --ylabel "dVth of T1 / its maximum" --title "Highest dVth from '1' duty (seed 002 Fig. 19)"
fig21-energy|--columns leak_slice,leak_logic,dyn_slice,dyn_logic,wakeup|--kind stack --group trace -x scheme --ymin 0 --ylabel "% of the baseline's energy" --title "Slice energy by component (seed 002 Fig. 21)"
EOF
        ;;
    undervolt) cat <<'EOF'
fig5-writes-common|--key common --columns normal%,patch_faulty%,patch_reliable%,lds%|--kind stack -x trace --ymin 0 --ymax 100 --ylabel "% of the writes" --title "DC-Patch writes, common scenario (seed 001 Fig. 5)"
fig8-energy|--columns static,read,write,comdec,patching,lds|--kind stack --group trace -x scheme --ymin 0 --ylabel "% of Conv's energy" --title "Register-file energy by component (seed 001 Fig. 8)"
EOF
        ;;
    healing) cat <<'EOF'
fig8-dvth|--key 1 --columns dvth_naive_mV|--kind bar -x trace --ymin 0 --ylabel "dVth after 360 h (mV)" --title "dVth of the degraded SC, naive kernel (seed 003 Fig. 8; healed: 0 by construction, a resting SC does not age, not drawn)"
fig9-overhead|--pivot slowdown_replay%|--kind bar -x trace --ymin 0 --ylabel "run-time slowdown, replayed (%)" --title "SC healing slowdown (rft-replay), 1 to 8 degraded SCs (seed 003 Fig. 9)"
EOF
        ;;
    esac
}

study_rules() {
    case $1 in
    aging)
        cat <<'EOF'
# examples/aging.sh: the six schemes in one process (rft run, rft(1)):
# records pass from stage to stage in memory, each allocator's placement
# feeds its schemes; a duty map per scheme (rft-vth compares them with the
# baseline) and an energy scan per scheme (rft-energy prices them).
#   baseline  rft-alloc --scheme first-fit | rft-duty
#   RC        rft-alloc --scheme first-fit | rft-gate --scheme rc | rft-duty
#   RAR       rft-alloc --scheme rar | rft-duty
#   RC+RAR    rft-alloc --scheme rar | rft-gate --scheme rc | rft-duty
#   WC        rft-alloc --scheme first-fit | rft-gate --scheme wc | rft-duty
#   ARGO      rft-alloc --scheme argo | rft-duty
# The seeds' lifetimes are of kernels run again and again (aging.sh -r):
# REPEAT steady, the steady state from one pass (rft-alloc --runs steady;
# 10 runs if RAR's rotation is not one permutation of a slice per run:
# windows of several sizes at a position, see rft-duty(1)); once; or N, the
# kernel run N times in a row first (rft-repeat(1)).  %/runs says which.
EOF
        echo "REPEAT = ${repeat:-steady}"
        cat <<'EOF'
RUNS = '"$$(sed -n 's/^steady$$/--runs steady/p' $(TRACE_DIR)/$(word 2,$(subst /, ,$*))/runs)"'
STEADY_OK = rft-alloc --scheme rar --events=- -o /dev/null $< $(LOG) | awk -F '\t' '$$5 == "alloc" && $$7 > 0 { \
	k = $$2 ":" $$3 ":"; if (!(k $$6 in n)) for (i = $$6; i < $$6 + $$7; i++) { if ((k i) in own && own[k i] != $$6) exit 1; own[k i] = $$6 } \
	else if (n[k $$6] != $$7) exit 1; n[k $$6] = $$7 }'
%/runs.rft: %/trace.rft
	case $(REPEAT) in steady) if $(STEADY_OK); then echo steady; else echo 10; fi ;; *) echo $(REPEAT) ;; esac > $*/runs
	case $$(cat $*/runs) in steady | once | 1) $(call LINK,trace.rft) ;; *) rft-repeat -n $$(cat $*/runs) -o $@ $< $(LOG) ;; esac
# $(call SCHEMES,LAST,SUFFIX[,SUB]): the six pipelines from "$<", each
# ending in LAST -o "$*/SUBSCHEME.SUFFIX", as rft run's arguments
SCHEMES = 'alloc --scheme first-fit $(RUNS) "$<" | $(1) -o "$*/$(3)base.$(2)"' \
	'alloc --scheme first-fit $(RUNS) "$<" | gate --scheme rc | $(1) -o "$*/$(3)rc.$(2)"' \
	'alloc --scheme rar $(RUNS) "$<" | $(1) -o "$*/$(3)rar.$(2)"' \
	'alloc --scheme rar $(RUNS) "$<" | gate --scheme rc | $(1) -o "$*/$(3)rcrar.$(2)"' \
	'alloc --scheme first-fit $(RUNS) "$<" | gate --scheme wc | $(1) -o "$*/$(3)wc.$(2)"' \
	'alloc --scheme argo $(RUNS) "$<" | $(1) -o "$*/$(3)argo.$(2)"'
# the duty maps are kept, for other rft-vth views (--by reg, --by bit)
.PRECIOUS: %/base.rft %/rc.rft %/rar.rft %/rcrar.rft %/wc.rft %/argo.rft
MAP_FILES = %/base.rft %/rc.rft %/rar.rft %/rcrar.rft %/wc.rft %/argo.rft
SCAN_FILES = %/base.scan %/rc.scan %/rar.scan %/rcrar.scan %/wc.scan %/argo.scan
EOF
        if [ "${shards:-1}" = 1 ]; then
            cat <<'EOF'
# one pass: the maps and the scans share the reading, placing and gating
$(MAP_FILES) $(SCAN_FILES): %/runs.rft
	rft run --quiet $(call SCHEMES,duty,rft) $(call SCHEMES,energy --scan,scan) $(LOG)
EOF
        fi
        cat <<'EOF'

# each table's notes (parameters, lifetime, temperature, runs, window, what
# the columns assume) are its '# ' lines, which rft-collect(1) gathers.
# SAVE writes them whole (.part, then mv): a signal between the mv and the
# recipe's end must not make make delete a complete result
.PRECIOUS: %/vth.tsv %/energy.tsv
%/vth.tsv: %/base.rft %/rc.rft %/rar.rft %/rcrar.rft %/wc.rft %/argo.rft
	rft-vth --format tsv base=$*/base.rft rc=$*/rc.rft rar=$*/rar.rft rcrar=$*/rcrar.rft wc=$*/wc.rft argo=$*/argo.rft $(SAVE)
%/energy.tsv: %/base.scan %/rc.scan %/rar.scan %/rcrar.scan %/wc.scan %/argo.scan
	rft-energy --format tsv base=$*/base.scan rc=$*/rc.scan rar=$*/rar.scan rcrar=$*/rcrar.scan wc=$*/wc.scan argo=$*/argo.scan $(SAVE)
EOF
        [ "${shards:-1}" = 1 ] || shard_rules
        ;;
    undervolt) undervolt_rules ;;
    healing)
        if [ "${shards:-1}" != 1 ]; then
            healing_shard_rules
            return
        fi
        cat <<'EOF'
# SC healing (seed 003 5.3) of a GCN trace: the run-time cost with 1 to 8 (an
# NVIDIA slice of 8 SCs: 1 to 7) degraded SCs per slice (Fig. 9; the rows with every CU healed), and the
# dVth of the one degraded SC after 360 hours, naive and healthy kernel
# (Fig. 8), as the row of 1 degraded SC.
%/cost.tsv: %/trace.rft
	rft-heal --scheme sc --report cost --format tsv $< $(LOG) | awk -F '\t' '/^#/ { print; next } !h++ || $$2 == "all"' | cut -f1,3- $(SAVE)
%/units.tsv: %/trace.rft
	rft-heal --scheme sc --report units --format tsv $< $(LOG) | awk -F '\t' -v OFS='\t' '/^#/ { print; next } !h++ { $$1 = "degraded_scs"; print; next } $$2 == "degraded" { $$1 = 1; print }' | cut -f1,3- $(SAVE)
EOF
        ;;
    pipeline)
        echo "# the pipeline given to rft-batch --pipeline, its output the result"
        echo "%/result.tsv: %/trace.rft"
        printf '\t{ %s; } <$< $(SAVE)\n' "$(printf '%s' "$pipeline" | sed 's/\$/$$/g')"
        ;;
    esac
}

# --shards N: the maps and energy scans of each trace made in N shards of
# its slices and added up by rft-merge, which gives the whole trace's maps
# and scans byte for byte.
shard_rules() {
    cat <<'EOF'

# The duty maps and energy scans in SHARDS shards of a trace's slices, added
# up by rft-merge(1) (the same maps and scans, byte for byte): shard K
# (folder sK) reads the trace's runs.rft, or with SPLIT its file from
# rft-split, with rft run --shard K/SHARDS, which keeps the slices whose
# index CU*SIMDs+SIMD is K modulo SHARDS (rft(1), SHARDS), and makes its
# maps and scans in one pass.
EOF
    shard_ids
    cat <<'EOF'
MAPS = base.rft rc.rft rar.rft rcrar.rft wc.rft argo.rft
SCANS = base.scan rc.scan rar.scan rcrar.scan wc.scan argo.scan
.SECONDARY: $(foreach t,$(TRACES),$(TRACE_DIR)/$(t)/trace.rft $(TRACE_DIR)/$(t)/runs.rft $(foreach k,$(SHARD_IDS),$(TRACE_DIR)/$(t)/split/runs.$(k).rft))
EOF
    split_rule runs
    for k in $ids; do
        printf '%%/s%s/base.rft %%/s%s/rc.rft %%/s%s/rar.rft %%/s%s/rcrar.rft %%/s%s/wc.rft %%/s%s/argo.rft ' $k $k $k $k $k $k
        printf '%%/s%s/base.scan %%/s%s/rc.scan %%/s%s/rar.scan %%/s%s/rcrar.scan %%/s%s/wc.scan %%/s%s/argo.scan: %s\n' $k $k $k $k $k $k "$(shard_input runs $k)"
        printf '\tmkdir -p $*/s%s && rft run --quiet --shard %s/$(SHARDS) $(call SCHEMES,duty,rft,s%s/) $(call SCHEMES,energy --scan,scan,s%s/) $(LOG)\n' $k $k $k $k
    done
    echo 'MERGED_FILES = $(MAPS) $(SCANS)'
    merged_rules
}

# split_rule NAME [BY]: with SPLIT, the rule that reads %/NAME.rft once and
# cuts it into the files of its shards (of slices, or BY: cu), which the
# shards read instead of the whole (a shard costs its share)
split_rule() {
    [ "$split" = yes ] || return 0
    echo "# the split (rft-split(1)): $1.rft read once and cut into the files of its shards"
    printf '%s: %%/%s.rft\n' "$(for k in $ids; do printf '%%/split/%s.%s.rft ' "$1" $k; done)" "$1"
    printf '\tmkdir -p $*/split && rft-split --shards $(SHARDS)%s -o "$*/split/%s.{}.rft" "$<" $(LOG)\n' \
        "${2:+ --shard-by $2}" "$1"
}

# shard_input NAME K: what shard K reads, %/NAME.rft or its file of the split
shard_input() {
    if [ "$split" = yes ]; then printf '%%/split/%s.%s.rft' "$1" "$2"; else printf '%%/%s.rft' "$1"; fi
}

# SHARD_IDS, SHARDS and SPLIT of the Makefile; ids, the shards' numbers
shard_ids() {
    k=0 ids=""
    while [ $k -lt "$shards" ]; do ids="$ids $k"; k=$((k + 1)); done
    echo "SHARDS = $shards"
    echo "SPLIT = $split"
    echo "SHARD_IDS =$ids"
}

# each file of MERGED_FILES in a trace's folder: every shard's, added by
# rft-merge
merged_rules() {
    cat <<'EOF'
define MERGED
$(1)/$(2): $(foreach k,$(SHARD_IDS),$(1)/s$(k)/$(2))
	rft-merge -o $$@ $$^ 2>>$(1)/log
endef
$(foreach t,$(TRACES),$(foreach m,$(MERGED_FILES),$(eval $(call MERGED,$(TRACE_DIR)/$(t),$(m)))))
EOF
}

# The undervolt study: the three scenarios in one pass (rft run), each
# ending in DC-Patch's summary and an energy scan; with --shards N, in N
# shards of whole compute units (rft run --shard-by cu: DC-Patch's LDS is a
# compute unit's), the scans added up by rft-merge.  One plan with shards
# or without: the writes table made of the scans' counters and the
# summaries' run times.
undervolt_rules() {
    cat <<'EOF'
# examples/undervolt.sh: DC-Patch under each fault scenario (fault maps of
# seed SEED, drawn per slice from the seed and the slice, so that a shard
# draws its slices' maps as the whole run does), its writes table and its
# energy against Conv and Smooth, the three scenarios in one pass (rft run:
# the fault maps passed to DC-Patch in memory, its stream to an energy
# scan).  The pass writes per scenario S DC-Patch's summary (S.tsv: its
# counts and total row, with the trace's span and its slices' largest
# replayed and upper run times) and energy scan (S.rft, with DC-Patch's
# counters: a scan is an rft stream that rft-energy prices as the patched
# stream it was made from, and is named as that stream, so that the
# tables' notes name the same files); the patched streams are not written.
SEED = 1
SCENARIOS = common clustered dispersed
# scenario $(1)'s pipeline of the trace "$<", its files in folder $*/$(2)
UV = 'faultmap --scenario $(1) --seed $(SEED) "$<" | dcpatch --summary="$*/$(2)$(1).tsv.part" --format tsv | energy --scan -o "$*/$(2)$(1).rft"'
EOF
    if [ "${shards:-1}" = 1 ]; then
        cat <<'EOF'
# the summaries and scans are kept (a few KB each)
.PRECIOUS: %/common.tsv %/clustered.tsv %/dispersed.tsv %/common.rft %/clustered.rft %/dispersed.rft
%/common.tsv %/clustered.tsv %/dispersed.tsv %/common.rft %/clustered.rft %/dispersed.rft: %/trace.rft
	rft run --quiet $(foreach s,$(SCENARIOS),$(call UV,$(s),)) $(LOG)
	for s in $(SCENARIOS); do mv $*/$$s.tsv.part $*/$$s.tsv; done
# the summaries of scenario $(1)
SUMMARIES = $*/$(1).tsv
EOF
    else
        cat <<'EOF'
# Made in SHARDS shards of whole compute units (folder sK: rft run --shard
# K/SHARDS --shard-by cu keeps the compute units that are K modulo SHARDS:
# DC-Patch's LDS spill partition is a compute unit's), each shard's
# summaries (its own total row, over the whole trace's span) and scans in
# sK; the trace's scan is the shards' added by rft-merge(1) (the whole
# run's, byte for byte).
EOF
        shard_ids
        cat <<'EOF'
MERGED_FILES = common.rft clustered.rft dispersed.rft
.SECONDARY: $(foreach t,$(TRACES),$(TRACE_DIR)/$(t)/trace.rft $(foreach k,$(SHARD_IDS),$(TRACE_DIR)/$(t)/split/trace.$(k).rft))
# the shards' summaries and scans are kept (rft-batch --status reads them)
.PRECIOUS: $(foreach k,$(SHARD_IDS),$(foreach s,$(SCENARIOS),%/s$(k)/$(s).tsv %/s$(k)/$(s).rft))
# the summaries of scenario $(1): the shards'
SUMMARIES = $(foreach k,$(SHARD_IDS),$*/s$(k)/$(1).tsv)
EOF
        split_rule trace cu
        for k in $ids; do
            printf '%%/s%s/common.tsv %%/s%s/clustered.tsv %%/s%s/dispersed.tsv ' $k $k $k
            printf '%%/s%s/common.rft %%/s%s/clustered.rft %%/s%s/dispersed.rft: %s\n' $k $k $k "$(shard_input trace $k)"
            printf '\tmkdir -p $*/s%s && rft run --quiet --shard %s/$(SHARDS) --shard-by cu $(foreach s,$(SCENARIOS),$(call UV,$(s),s%s/)) $(LOG)\n' $k $k $k
            printf '\tfor s in $(SCENARIOS); do mv $*/s%s/$$s.tsv.part $*/s%s/$$s.tsv; done\n' $k $k
        done
        merged_rules
    fi
    cat <<'EOF'

# The total row of each scenario (seed 001 Fig. 5, 6; V-A2) as rft-dcpatch
# --summary prints it: the counts, the LDS peak (the largest compute
# unit's) and mean from DC-Patch's counters in the (added) scan (rft-view
# prints them), the traced, replayed and upper run times the largest of the
# summaries' total rows (each of the whole trace's span; empty where a
# stream was not replayed, or its cycles estimated), the shares computed
# from them; the notes and header of the first summary.
WRITES_ROW = awk -F '\t' -v OFS='\t' -v s=$(1) ' \
	function pct(a, b, d) { return sprintf("%." d "f", b ? 100 * a / b : 0) } \
	$(AWK_SLOWDOWN) \
	function int0(v) { return sprintf("%.0f", v) } \
	FILENAME == "-" { for (i = 1; i <= NF; i++) if (split($$i, kv, "=") == 2) c[kv[1]] = kv[2]; next } \
	/^\#/ || !h[FILENAME]++ { next } \
	$$1 == "total" { if ($$14 == "") none = 1; if ($$14 + 0 > n) n = $$14 + 0; if ($$15 == "") blank = 1; else if ($$15 + 0 > r) r = $$15 + 0; if ($$17 + 0 > u) u = $$17 + 0 } \
	END { d = "rft-dcpatch."; w = c[d "writes"]; \
	  print s, w, pct(c[d "writes_normal"], w, 2), pct(c[d "writes_patch_faulty"], w, 2), pct(c[d "writes_patch_reliable"], w, 2), \
	    pct(c[d "writes_lds"], w, 2), pct(c[d "writes_mispredicted"], w, 2), c[d "mov_injected"], c[d "reads"], \
	    pct(c[d "lds_loads"], c[d "reads"], 3), c[d "lds_peak_bytes"], \
	    sprintf("%.1f", c[d "cu_cycles"] ? c[d "lds_spill_byte_cycles"] / c[d "cu_cycles"] : 0), \
	    c[d "stall_cycles"], none ? "" : int0(n), blank ? "" : int0(r), blank ? "" : slowdown(n, r), \
	    none ? "" : int0(u), none ? "" : slowdown(n, u) }'
FIRST_SUMMARY = $(firstword $(call SUMMARIES,common))
%/writes.tsv: %/common.rft %/clustered.rft %/dispersed.rft $$(call SUMMARIES,common) $$(call SUMMARIES,clustered) $$(call SUMMARIES,dispersed)
	{ grep '^#' $(FIRST_SUMMARY); printf 'scenario\t'; grep -v '^#' $(FIRST_SUMMARY) | head -n 1 | cut -f2-; \
	  for s in $(SCENARIOS); do rft-view $*/$$s.rft | $(call WRITES_ROW,$$s) - $(call SUMMARIES,$$s); done; } $(SAVE)
%/energy.tsv: %/common.rft %/clustered.rft %/dispersed.rft
	rft-energy --format tsv common=$*/common.rft clustered=$*/clustered.rft dispersed=$*/dispersed.rft $(SAVE)
EOF
}

# --shards N, healing: shards of whole compute units (rft-heal --shard-by
# cu: a work-group's wavefronts, and their redundant ones, are a compute
# unit's), each making the cost, units and slices tables of its compute
# units over the whole trace's window; the trace's tables from theirs.
healing_shard_rules() {
    cat <<'EOF'
# SC healing (seed 003 5.3) of a GCN trace: the run-time cost with 1 to 8
# degraded SCs per slice (Fig. 9; the rows with every CU healed), and the
# dVth of the one degraded SC after 360 hours, naive and healthy kernel
# (Fig. 8), as the row of 1 degraded SC; made in SHARDS shards of whole
# compute units (folder sK: rft-heal --shard K/SHARDS --shard-by cu, which
# keeps the compute units that are K modulo SHARDS, so that a work-group and
# its redundant wavefronts stay in one shard), each over the whole trace's
# window: its cost table (sK/cost.tsv), its units table (sK/units.tsv, its
# own most stressed SC degraded) and its slices' busy cycles (sK/slices.tsv).
EOF
    shard_ids
    cat <<'EOF'
.SECONDARY: $(foreach t,$(TRACES),$(TRACE_DIR)/$(t)/trace.rft $(foreach k,$(SHARD_IDS),$(TRACE_DIR)/$(t)/split/trace.$(k).rft))
# the shards' tables are kept (rft-batch --status reads them)
.PRECIOUS: $(foreach k,$(SHARD_IDS),%/s$(k)/cost.tsv %/s$(k)/units.tsv %/s$(k)/slices.tsv)
HEAL = rft-heal --shard $(2)/$(SHARDS) --shard-by cu --scheme sc --format tsv $(1) $< $(LOG)
EOF
    split_rule trace cu
    for k in $ids; do
        f=$(shard_input trace $k)
        printf '%%/s%s/cost.tsv: %s\n' $k "$f"
        printf '\tmkdir -p $*/s%s && $(call HEAL,--report cost,%s) $(SAVE)\n' $k $k
        printf '%%/s%s/units.tsv: %s\n' $k "$f"
        printf '\tmkdir -p $*/s%s && $(call HEAL,--report units,%s) $(SAVE)\n' $k $k
        printf '%%/s%s/slices.tsv: %s\n' $k "$f"
        printf '\tmkdir -p $*/s%s && $(call HEAL,--report slices --counts,%s) $(SAVE)\n' $k $k
    done
    cat <<'EOF'

# The notes of shard 0's table $(1), but the share of idle SCs: that of
# every shard's slices (their busy cycles over the window), as rft-heal
# writes it when the SCs are idle half the window or more
HEAL_NOTES = awk -F '\t' ' \
	FILENAME != "$(1)" && /^[0-9]/ { busy += $$5; units += $$12; span = $$13; next } \
	FILENAME != "$(1)" { next } \
	!/^\#/ { exit } \
	/^\# differs from the seed: idle slots: / { next } \
	/^\# (note|estimate): / && !done { idle(); done = 1 } \
	{ print } \
	END { if (!done) idle() } \
	function idle(  x) { x = units && span ? 1 - busy / (span * units) : 0; \
	  if (x >= 0.5) printf "\# differs from the seed: idle slots: the SCs are idle %.1f %% of the window (50 %% or more): a kernel with idle slots ages every unit less, and resting a unit saves less\n", 100 * x }' \
	$(foreach k,$(SHARD_IDS),$*/s$(k)/slices.tsv) $(1)
SHARD_TABLES = $$(foreach k,$$(SHARD_IDS),$$*/s$$(k)/$(1).tsv)

# each row with every CU healed: the largest of the shards' run times (each
# over the whole trace's window and span), the shares computed from them
%/cost.tsv: $(call SHARD_TABLES,cost) $(call SHARD_TABLES,slices)
	{ $(call HEAL_NOTES,$*/s0/cost.tsv); awk -F '\t' -v OFS='\t' ' \
	  $(AWK_SLOWDOWN) \
	  /^\#/ { next } !h[FILENAME]++ { if (FILENAME == f0) print; next } $$2 != "all" { next } \
	  { d = $$1; nd[d] = 1; for (i = 3; i <= 9; i++) if (i != 5 && i != 8) { if ($$i == "") b[d, i] = 1; else if ($$i + 0 > m[d, i]) m[d, i] = $$i + 0 } } \
	  END { for (d = 1; d in nd; d++) { for (i = 3; i <= 9; i++) v[i] = sprintf("%.0f", m[d, i]); \
	    if (b[d, 7]) v[7] = ""; \
	    print d, "all", v[3], v[4], slowdown(m[d, 3], m[d, 4]), v[6], v[7], b[d, 7] ? "" : slowdown(m[d, 6], m[d, 7]), v[9], slowdown(m[d, 6], m[d, 9]) } }' \
	  f0=$*/s0/cost.tsv $(foreach k,$(SHARD_IDS),$*/s$(k)/cost.tsv) | cut -f1,3-; } $(SAVE)
# the degraded row of the shard holding the most stressed SC (the largest
# busy cycles of an SC: its row is of that SC's duty alone)
%/units.tsv: $(call SHARD_TABLES,units) $(call SHARD_TABLES,slices)
	{ $(call HEAL_NOTES,$*/s0/units.tsv); best=0 max=-1; for k in $(SHARD_IDS); do \
	  m=$$(awk -F '\t' '/^[0-9]/ && $$6 + 0 > m { m = $$6 + 0 } END { printf "%.0f", m }' $*/s$$k/slices.tsv); \
	  if [ "$$m" -gt "$$max" ]; then max=$$m best=$$k; fi; done; \
	  awk -F '\t' -v OFS='\t' 'FILENAME == "-" && !/^\#/ && !h++ { $$1 = "degraded_scs"; print } FILENAME != "-" && $$2 == "degraded" { $$1 = 1; print }' \
	    - $*/s$$best/units.tsv <$*/s0/units.tsv | cut -f1,3-; } $(SAVE)
EOF
}

# What a Slurm task makes: LABEL<TAB>make goals, a line per task; with
# shards, one task per shard's maps and scans, the rest (rft-merge, the
# tables) in the collecting job.
task_goals() {
    if [ "${shards:-1}" = 1 ]; then
        printf '%s\ttrace-%s\n' "$1" "$1"
        return
    fi
    k=0
    while [ $k -lt "$shards" ]; do
        printf '%s\t' "$1"
        if [ "$study" = undervolt ]; then
            for m in common clustered dispersed; do printf '%s%s/s%d/%s.tsv %s%s/s%d/%s.rft ' "$tsub" "$1" $k $m "$tsub" "$1" $k $m; done
        elif [ "$study" = healing ]; then
            for m in cost units slices; do printf '%s%s/s%d/%s.tsv ' "$tsub" "$1" $k $m; done
        else
            for m in base rc rar rcrar wc argo; do printf '%s%s/s%d/%s.rft %s%s/s%d/%s.scan ' "$tsub" "$1" $k $m "$tsub" "$1" $k $m; done
        fi
        echo
        k=$((k + 1))
    done
}

# ---- the batch folder ----------------------------------------------------------
# The Makefile: written once (edit it to change a stage; remove it to get the
# study's own back), the traces in traces.mk, rewritten on every run.
write_makefile() {
    cat <<EOF
# Makefile, written by rft-batch for the $study study: $(study_title "$study")
# 'make -k -j N' (in this folder) runs it as rft-batch does; 'make trace-LABEL'
# one trace.  Each result is written under a temporary name and renamed when
# complete, so a result that exists is whole.  A trace's folder is
# TRACE_DIR/LABEL (% in a rule), its messages go to TRACE_DIR/LABEL/log.
study = $study
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:
SHELL = /bin/bash
.SHELLFLAGS = -o pipefail -ec
include traces.mk
TRACE_DIR = traces
RESULTS = $(study_results "$study")
LOG = 2>>\$(TRACE_DIR)/\$(word 2,\$(subst /, ,\$*))/log
SAVE = >\$@.part \$(LOG) && mv \$@.part \$@
# a symbolic link \$@ to \$(1), replacing an older one in one step
LINK = ln -sf \$(1) \$@.\$\$\$\$ && mv -f \$@.\$\$\$\$ \$@
# awk: the slowdown in % of run time c over n, empty without n (the
# undervolt and healing tables made from shards)
AWK_SLOWDOWN = function slowdown(n, c) { return n ? sprintf("%.2f", 100 * (c - n) / n) : "" }

.PHONY: all table
all: table
.SECONDEXPANSION:
trace-%: \$\$(addprefix \$(TRACE_DIR)/\$\$*/,\$\$(RESULTS)) ;

# decode once; an rft stream (rft-view -H reads its header) is used as it
# is, anything else decoded in the format rft-batch --input-format named for
# it (FORMAT_LABEL in traces.mk), else the one rft-decode detects
%/trace.rft: %/input
	if rft-view -H \$< >/dev/null 2>&1; then \$(call LINK,input); else rft-decode --input-format \$(or \$(FORMAT_\$(notdir \$*)),auto) -o \$@ \$< \$(LOG); fi

$(study_rules "$study")

# the cross-trace table (rft-collect(1)) and the charts of the seeds
ALL_RESULTS = \$(foreach t,\$(TRACES),\$(addprefix \$(TRACE_DIR)/\$(t)/,\$(RESULTS)))
table: table.txt table.tsv table.csv table.json figures
table.txt: \$(ALL_RESULTS) traces.tsv collect.conf
	rft-collect -o \$@ . 2>>collect.log
table.tsv table.csv table.json: table.%: \$(ALL_RESULTS) traces.tsv collect.conf
	rft-collect --format \$* -o \$@ . 2>>collect.log
EOF
    figs=""
    study_figures "$study" | {
        while IFS='|' read -r name select plot; do
            printf 'figures/%s.tsv: table.tsv\n' "$name"
            printf '\tmkdir -p figures && rft-collect %s --format tsv -o $@ . 2>>collect.log\n' \
                "$(printf '%s' "$select" | sed 's/\$/$$/g')"
            printf 'figures/%s.svg: figures/%s.tsv\n' "$name" "$name"
            printf '\trft-plot %s -o $@ $< 2>>collect.log\n' \
                "$(printf '%s' "$plot" | sed 's/\$/$$/g')"
            figs="$figs figures/$name.svg"
        done
        printf '.PHONY: figures\nfigures:%s\n' "$figs"
    }
}

# A trace's label: its file name without the trace suffixes.
label_of() {
    b=$(basename -- "$1")
    b=${b%.zst}
    b=${b%.zstd}
    for s in .tsv .csv .txt .log .trace; do b=${b%"$s"}; done
    printf '%s\n' "${b%.rft}"
}

# A label from a file's name: every other character _ (é: two), a first .
# or - after an x, and one already taken (or mean) numbered (_2, _3...).
safe_label() {
    b=$(printf '%s' "$1" | LC_ALL=C sed 's/[^A-Za-z0-9_.+-]/_/g; s/^[.-]/x&/')
    [ -n "$b" ] || b=trace
    l=$b n=1
    while [ "$l" = mean ] || cut -f1 "$tmp/traces" 2>/dev/null | grep -qxF -- "$l"; do
        n=$((n + 1))
        l=${b}_$n
    done
    printf '%s\n' "$l"
}

# inputs.txt: the traces found, a line each (label, format, size, file), then
# a line for each file of a folder that was skipped and why.  The sizes are
# the files', not the writes: counting a trace's writes takes decoding all of
# it, which is the run's work.
list_inputs() {
    ntr=$(wc -l <"$tmp/traces" | tr -d ' ')
    [ "$ntr" = 1 ] && s="" || s=s
    printf '%s: %d trace%s (the size of each file, not its writes: counting them takes decoding the whole trace, which the run does):\n' \
        "$prog" "$ntr" "$s"
    # label, format, size, file, in columns
    paste "$tmp/found" "$tmp/traces" | awk -F '\t' -v OFS='\t' '
        function size(b) {
            if (b < 1024) return b " B"
            if (b < 1048576) return sprintf("%.1f KiB", b / 1024)
            if (b < 1073741824) return sprintf("%.1f MiB", b / 1048576)
            return sprintf("%.1f GiB", b / 1073741824)
        }
        BEGIN { r[0] = "label\tformat\tsize\tfile"; n = 1; w[1] = 5; w[2] = 6; w[3] = 4 }
        {
            r[n++] = $1 "\t" $2 "\t" size($3) "\t" $5
            if (length($1) > w[1]) w[1] = length($1)
            if (length($2) > w[2]) w[2] = length($2)
            if (length(size($3)) > w[3]) w[3] = length(size($3))
        }
        END {
            for (i = 0; i < n; i++) {
                split(r[i], c, "\t")
                printf "  %-" w[1] "s  %-" w[2] "s  %" w[3] "s  %s\n", c[1], c[2], c[3], c[4]
            }
        }'
    cat "$tmp/skipped"
    [ ! -s "$tmp/relabelled" ] || cat "$tmp/relabelled"
}

# ---- which files are traces ---------------------------------------------------
# A file is a trace by its content, not its name: an rft stream (rft-view -H
# reads its header), or a file whose beginning rft-decode decodes, its format
# detected (--input-format auto).  Only the first PROBE_BYTES of the content
# (decompressed) are read, cut at a line: rft-decode's detection reads at
# most 64 KiB.  A raw simulator log (m2s, evg, gem5, nvbit) is taken from a
# folder only when --input-format names its format.
probe_bytes=262144
sim_formats="m2s evg gem5 nvbit"
log_name() {
    case $1 in
    m2s) echo "Multi2Sim (Southern Islands ISA)" ;;
    evg) echo "Multi2Sim (Evergreen ISA)" ;;
    gem5) echo "gem5" ;;
    nvbit) echo "NVBit (record_reg_vals)" ;;
    esac
}

# decode_head FORMAT: does $tmp/head decode as FORMAT?  Sets dfmt (the format
# rft-decode chose) and herr (why not: its message, "line N: ...").  Lines
# that decode before a bad one make a trace (a corrupt one: the run names its
# error), so only a file whose first record does not decode is refused.
decode_head() {
    herr="" st=0
    rft-decode -v --input-format "$1" -o "$tmp/head.rft" <"$tmp/head" 2>"$tmp/head.err" || st=$?
    dfmt=$(sed -n 's/^rft-decode: -: format \([a-z0-9]*\) (.*/\1/p' "$tmp/head.err" | head -n 1)
    if [ $st = 0 ]; then
        rft-view "$tmp/head.rft" 2>/dev/null | head -n 1 | grep -q . && return 0
        herr="no records${head_cut:+ in its first $((probe_bytes / 1024)) KiB}"
        return 1
    fi
    herr=$(grep -av '^rft-decode: -: format \|^rft-decode: warning: ' "$tmp/head.err" | head -n 1 |
        sed 's/^rft-decode: -:\([0-9][0-9]*\): /line \1: /; s/^rft-decode: -: //')
    bad_line=$(printf '%s\n' "$herr" | sed -n 's/^line \([0-9][0-9]*\): .*/\1/p')
    if [ -n "$bad_line" ] && [ "$bad_line" -gt 1 ] &&
        head -n $((bad_line - 1)) "$tmp/head" | rft-decode --input-format "$dfmt" -o "$tmp/head.rft" 2>/dev/null &&
        rft-view "$tmp/head.rft" 2>/dev/null | head -n 1 | grep -q .; then
        return 0
    fi
    return 1
}

# probe FILE: sets fmt (rft, or the format its beginning decodes as), named
# (the format rft-decode is to be given: --input-format's, or empty: auto)
# and why (empty when FILE is taken from a folder; else why not, one line).
probe() {
    fmt="" named="" why=""
    [ -s "$1" ] || { why="an empty file"; return; }
    if rft-view -H -- "$1" >/dev/null 2>&1; then fmt=rft; return; fi
    zstd -dcfq -- "$1" 2>/dev/null | head -c $probe_bytes >"$tmp/head" || :
    head_cut=""
    if [ "$(wc -c <"$tmp/head")" -ge $probe_bytes ]; then
        head_cut=1
        sed '$d' "$tmp/head" >"$tmp/head.cut"    # a line cut short
        mv "$tmp/head.cut" "$tmp/head"
    fi
    if decode_head auto; then
        fmt=$dfmt
        case " $sim_formats " in *" $fmt "*) ;; *) return ;; esac
        [ "$input_format" != "$fmt" ] || { named=$fmt; return; }
        why="a raw $(log_name "$fmt") log ($fmt): a trace only when its format is named (--input-format $fmt)"
    else
        why="not a trace (${dfmt:+read as $dfmt: }$herr)"
    fi
    if [ -n "$input_format" ] && [ "$input_format" != "$dfmt" ] && decode_head "$input_format"; then
        fmt=$input_format named=$input_format why=""
    fi
}

# Inputs to "LABEL<TAB>ABSOLUTE PATH" lines in $tmp/traces; "LABEL<TAB>FORMAT
# <TAB>BYTES" in $tmp/found, "LABEL<TAB>FORMAT" in $tmp/named for those
# rft-decode is told the format of.
add_trace() {   # PATH [LABEL [FROM-A-FOLDER]]
    [ -f "$1" ] || die "$1: no such trace"
    [ -r "$1" ] || die "$1: not readable"
    if has_cntrl "$1"; then
        die "$(printf '%s' "$1" | tr '[:cntrl:]' '?'): a control character (a newline, a tab, ...) in a trace's path is not supported"
    fi
    l=${2:-$(label_of "$1")}
    if [ -z "${2:-}" ]; then    # a file's name: made a label, said so (issue 31)
        n0=$l
        l=$(safe_label "$n0")
        if [ "$l" != "$n0" ]; then
            case $n0 in
            '' | .* | -* | *[!A-Za-z0-9_.+-]*)
                lwhy="a label is letters, digits and _.+-, not first . or -" ;;
            mean) lwhy="the label mean is the mean rows'" ;;
            *) lwhy="the label $n0 is another trace's" ;;
            esac
            printf '%s: %s: labelled %s (%s)\n' "$prog" "$1" "$l" "$lwhy" >>"$tmp/relabelled"
            printf '%s\t%s\t%s\n' "$l" "$1" "$lwhy" >>"$tmp/relabels"
        fi
    fi
    case $l in
    '' | .* | -* | *[!A-Za-z0-9_.+-]*)
        die "$1: label '$l' is not letters, digits and _.+- (give one in a manifest)" ;;
    mean) die "$1: label 'mean' is the mean rows' (give another in a manifest)" ;;
    esac
    if [ -z "${3:-}" ]; then    # named by the user: taken, or refused here
        probe "$1"
        case $why in
        '') ;;
        "a raw "*) why="" ;;        # decoded in the format detected
        *) die "$1: $why" ;;
        esac
    fi
    p=$(cd -- "$(dirname -- "$1")" && pwd)/$(basename -- "$1")
    printf '%s\t%s\n' "$l" "$p" >>"$tmp/traces"
    printf '%s\t%s\t%s\n' "$l" "$fmt" "$(wc -c <"$1" | tr -d ' ')" >>"$tmp/found"
    [ -z "$named" ] || printf '%s\t%s\n' "$l" "$named" >>"$tmp/named"
}

# The files of a folder that are traces (not its subfolders, nor the files
# whose names start with a dot); a line in $tmp/skipped for each other one.
add_folder() {
    found=0
    : >"$tmp/skipped.here"
    for f in "$1"/*; do
        [ -e "$f" ] || [ -L "$f" ] || continue      # an empty folder's *
        why=""
        if [ -d "$f" ]; then why="a folder (not searched)"
        elif [ ! -f "$f" ]; then why="not a regular file"
        elif [ ! -r "$f" ]; then why="not readable"
        elif has_cntrl "$f"; then why="a control character in its name"
        else probe "$f"
        fi
        if [ -n "$why" ]; then
            printf '%s: skipped %s: %s\n' "$prog" "$f" "$why" >>"$tmp/skipped.here"
            # named as a trace (.rft, .trace): the batch fails at its end, naming it
            case ${f##*/} in
            *.rft | *.rft.* | *.trace | *.trace.*)
                [ "${why#not a trace}" = "$why" ] || printf '%s: %s: named as a trace, but %s\n' \
                    "$prog" "$f" "$why" >>"$tmp/broken" ;;
            esac
            continue
        fi
        add_trace "$f" "" folder
        found=1
    done
    cat "$tmp/skipped.here" >>"$tmp/skipped"
    if [ $found = 0 ]; then
        cat "$tmp/skipped.here" >&2
        die "$1: no traces (no file in it decodes as a trace)"
    fi
}

add_manifest() {
    [ -r "$1" ] || die "$1: cannot read the manifest"
    base=$(dirname -- "$1")
    n=0
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        case $line in '' | '#'*) continue ;; esac
        path=${line%%'	'*}
        label=""
        [ "$path" = "$line" ] || label=${line#*'	'}
        if has_cntrl "$path$label"; then
            die "$1: line $n: a control character (a carriage return, a second tab, ...) in a path or label"
        fi
        case $path in /*) ;; *) path=$base/$path ;; esac
        [ -e "$path" ] || die "$1: line $n: $path: no such trace"
        add_trace "$path" "$label"
    done <"$1"
}

# The results of trace $1 are all there.
is_done() {
    for r in $results; do
        [ -e "$out/$tsub$1/$r" ] || return 1
    done
}

# Where the trace folders are: traces/ in the batch folder; a folder made
# by an earlier rft-batch, whose Makefile has no TRACE_DIR, keeps them
# beside its own files.
trace_dir() {
    tsub=traces/
    if [ -f "$out/Makefile" ] && ! grep -q '^TRACE_DIR = traces$' "$out/Makefile"; then
        tsub=""
    fi
}

first_error() {
    if [ -s "$out/$tsub$1/log" ]; then
        head -n 1 "$out/$tsub$1/log"
    else
        echo "failed (no message; see $out/make.log)"
    fi
}

# ---- local runs -------------------------------------------------------------
elapsed() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

# done_n and total: the traces done, of all
count_done() {
    done_n=0
    total=0
    while IFS='	' read -r l _; do
        total=$((total + 1))
        if is_done "$l"; then done_n=$((done_n + 1)); fi
    done <"$out/traces.tsv"
}

# Traces done / total, elapsed, an estimate from this run's pace: every
# second, on one line, while the run goes on.
progress() {
    start=$(date +%s)
    before=$1
    while :; do
        count_done
        t=$(($(date +%s) - start))
        left=""
        if [ $done_n -gt "$before" ] && [ $done_n -lt $total ]; then
            left=", about $(elapsed $((t * (total - done_n) / (done_n - before)))) left"
        fi
        printf '\r%s: %d/%d traces, %s elapsed%s\033[K' "$prog" $done_n $total "$(elapsed $t)" "$left" >&2
        sleep 1
    done
}

run_local() {
    count_done
    before=$done_n
    start=$(date +%s)
    # make in a session of its own (its process group: make_pid), so that
    # one signal stops every stage
    setsid make -C "$out" -k -s -j "$jobs" all >"$out/make.log" 2>&1 &
    make_pid=$!
    mon=""
    trap 'stop INT 130' INT
    trap 'stop TERM 143' TERM
    trap 'stop HUP 129' HUP
    if [ -t 2 ] && [ -z "$quiet" ]; then
        progress "$before" 9>&- &
        mon=$!
    fi
    status=0
    wait $make_pid || status=$?
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
    if [ -n "$mon" ]; then
        kill "$mon" 2>/dev/null || :
        wait "$mon" 2>/dev/null || :
        count_done
        printf '\r%s: %d/%d traces done, %s elapsed\033[K\n' "$prog" $done_n $total \
            "$(elapsed $(($(date +%s) - start)))" >&2
    fi
    failed=0
    while IFS='	' read -r l p; do
        if ! is_done "$l"; then
            printf '%s: %s (%s): %s\n' "$prog" "$l" "$p" "$(first_error "$l")" >&2
            failed=$((failed + 1))
        fi
    done <"$out/traces.tsv"
    [ $failed = 0 ] || exit 1
    if [ $status != 0 ]; then
        if [ -s "$out/collect.log" ]; then
            die "collecting: $(head -n 1 "$out/collect.log")"
        fi
        die "make failed: $(grep -v '^make' "$out/make.log" | head -n 1) (see $out/make.log)"
    fi
}

# A signal (NAME STATUS): stop every stage within a second, note it for
# --status, exit with the signal's status.  make and its stages ignore INT
# (a non-interactive sh starts a background job so): TERM stops them, each
# removing its temporaries; one still there after a second is killed, and
# what it leaves half written is never taken as a result (the next run
# removes it and redoes the result).
stop() {
    trap '' INT TERM HUP
    kill -TERM -"$make_pid" 2>/dev/null || :
    [ -z "$mon" ] || kill "$mon" 2>/dev/null || :
    # (not holding the folder's lock, which says a run is under way)
    (sleep 1 && kill -KILL -"$make_pid") >/dev/null 2>&1 9>&- &
    killer=$!
    wait "$make_pid" 2>/dev/null || :
    kill -KILL "$killer" 2>/dev/null || :
    # what the stopped stages left half written (a rerun redoes it)
    find "$out" -name '*.part' -type f -exec rm -f -- {} + 2>/dev/null || :
    printf '%s\n' "$1" >"$out/interrupted"
    [ -z "$mon" ] || printf '\n' >&2
    count_done
    echo "$prog: stopped by SIG$1: $done_n/$total traces done; a rerun resumes the others" >&2
    exit "$2"
}

# ---- Slurm ----------------------------------------------------------------------
# Scripts kept in DIR/slurm: array.sh runs one trace per task, collect.sh the
# table once all succeeded, submit.sh submits both (run it again to resubmit).
write_slurm() {
    mkdir -p "$out/slurm"
    : >"$tmp/tasks"
    while IFS='	' read -r l _; do
        is_done "$l" || task_goals "$l" >>"$tmp/tasks"
    done <"$out/traces.tsv"
    mv "$tmp/tasks" "$out/slurm/tasks"
    ntasks=$(wc -l <"$out/slurm/tasks")
    qdir=$(quote "$(cd "$out" && pwd)")
    cat >"$out/slurm/array.sh" <<EOF
#!/bin/sh
# One task a line of slurm/tasks (line SLURM_ARRAY_TASK_ID + 1): a trace's
# label and the make goals that are its results (or a shard's), made by the
# batch's Makefile with as many jobs as the task has CPUs.
#SBATCH --job-name=rft-$study
#SBATCH --cpus-per-task=$jobs
#SBATCH --output=slurm/%A_%a.out
set -eu
PATH=$(quote "$bindir"):\$PATH
cd $qdir
goals=\$(sed -n "\$((SLURM_ARRAY_TASK_ID + 1))p" slurm/tasks | cut -f2)
exec make -k -s -j "\${SLURM_CPUS_PER_TASK:-$jobs}" \$goals
EOF
    cat >"$out/slurm/collect.sh" <<EOF
#!/bin/sh
# The cross-trace table and charts, once every task has succeeded.
#SBATCH --job-name=rft-$study-collect
#SBATCH --output=slurm/collect.out
set -eu
PATH=$(quote "$bindir"):\$PATH
cd $qdir
exec make -s table
EOF
    cat >"$out/slurm/submit.sh" <<EOF
#!/bin/sh
# Submit the batch: the array (one task per line of slurm/tasks), then the
# collecting job, run only if every task succeeds (afterok; cancelled, not
# left pending, when one fails).  The job ids go to slurm/jobs.
set -eu
cd $qdir
array=\$(sbatch --parsable --array=0-$((ntasks - 1))$sbatch_opts slurm/array.sh)
array=\${array%%;*}
if ! collect=\$(sbatch --parsable --dependency=afterok:\$array --kill-on-invalid-dep=yes$sbatch_opts slurm/collect.sh); then
    scancel "\$array"
    exit 1
fi
echo "\$array \${collect%%;*}" >slurm/jobs
EOF
    chmod 755 "$out/slurm/array.sh" "$out/slurm/collect.sh" "$out/slurm/submit.sh"
}

run_slurm() {
    write_slurm
    rm -f "$out/slurm/jobs"
    if [ "$ntasks" = 0 ]; then
        echo "$prog: every trace is done; collecting here" >&2
        make -C "$out" -s table >"$out/make.log" 2>&1 ||
            die "collecting: $(head -n 1 "$out/collect.log" 2>/dev/null)"
        return
    fi
    if ! sh "$out/slurm/submit.sh" >"$tmp/sbatch.out" 2>&1; then
        die "$(grep . "$tmp/sbatch.out" | tail -n 1)"
    fi
    read -r array collect <"$out/slurm/jobs"
    echo "$array $collect"
    echo "$prog: array job $array ($ntasks tasks), collecting job $collect; see rft-batch --status $out" >&2
}

# ---- status -------------------------------------------------------------------
status() {
    [ -f "$out/traces.tsv" ] && [ -f "$out/Makefile" ] ||
        die "$out: not a batch folder (no traces.tsv and Makefile)"
    results=$(sed -n 's/^RESULTS = //p' "$out/Makefile")
    trace_dir
    stopped=""
    [ ! -f "$out/interrupted" ] || stopped=$(head -n 1 "$out/interrupted")
    array="" collect="" queue=""
    if [ -f "$out/slurm/jobs" ]; then
        read -r array collect <"$out/slurm/jobs"
        if command -v squeue >/dev/null 2>&1; then
            queue=$(squeue -h -r -j "$array,$collect" -o '%i %T %r' 2>/dev/null || :)
        fi
    fi
    local_run=""
    if ! flock -n "$out/.lock" true 2>/dev/null; then local_run=1; fi
    w=7
    while IFS='	' read -r l _; do [ ${#l} -le $w ] || w=${#l}; done <"$out/traces.tsv"
    printf "%-${w}s  %-8s  %s\n" trace state detail
    n_done=0 n_fail=0 n_run=0 n_wait=0 n_int=0
    while IFS='	' read -r l p; do
        detail=""
        if is_done "$l"; then
            state=done
            n_done=$((n_done + 1))
        else
            # its tasks: the first running or pending one; all done (their
            # goals there: shards), the collecting job makes the rest
            state="" job="" tasks="" tasks_done=1
            if [ -n "$array" ]; then
                tasks=$(awk -F '\t' -v l="$l" '$1 == l { print NR - 1 }' "$out/slurm/tasks")
            fi
            for i in $tasks; do
                q=$(printf '%s\n' "$queue" | awk -v j="${array}_$i" '$1 == j { print tolower($2) }')
                if [ -n "$q" ] && { [ -z "$state" ] || [ "$q" = running ]; }; then
                    state=$q job=${array}_$i
                fi
                for g in $(sed -n "$((i + 1))p" "$out/slurm/tasks" | cut -f2); do
                    case $g in trace-*) tasks_done="" ;; *) [ -e "$out/$g" ] || tasks_done="" ;; esac
                done
            done
            if [ -n "$state" ]; then
                detail="job $job"
            elif [ -n "$local_run" ]; then
                state=running
                detail="a local run is under way"
            elif [ -n "$tasks" ] && [ -n "$tasks_done" ]; then
                state=waiting
                detail="its tasks are done; the collecting job makes the rest"
            elif [ -n "$stopped" ]; then
                state=interrupted
                detail="the run was stopped by SIG$stopped; a rerun resumes it"
                [ ! -s "$out/$tsub$l/log" ] || detail="$detail (its log: $(first_error "$l"))"
            elif [ -s "$out/$tsub$l/log" ] || [ -n "$tasks" ]; then
                state=failed
                detail=$(first_error "$l")
            else
                state="not run"
            fi
            case $state in
            running) n_run=$((n_run + 1)) ;;
            failed) n_fail=$((n_fail + 1)) ;;
            interrupted) n_int=$((n_int + 1)) ;;
            *) n_wait=$((n_wait + 1)) ;;
            esac
        fi
        printf "%-${w}s  %-8s  %s\n" "$l" "$state" "$detail"
    done <"$out/traces.tsv"
    # the table
    if [ -s "$out/table.tsv" ] && [ -z "$local_run" ]; then
        state=done detail="$out/table.txt"
    elif [ -n "$collect" ] && line=$(printf '%s\n' "$queue" | awk -v j="$collect" '$1 == j') && [ -n "$line" ]; then
        state=$(echo "$line" | awk '{ print tolower($2) }') detail="job $collect"
    elif [ -s "$out/collect.log" ]; then
        state=failed detail=$(head -n 1 "$out/collect.log")
    elif [ -n "$stopped" ]; then
        state="not run" detail="the run was stopped by SIG$stopped"
    elif [ $n_fail -gt 0 ]; then
        state="not run" detail="a trace failed${collect:+: job $collect cancelled}"
    else
        state="not run" detail=""
    fi
    printf "%-${w}s  %-8s  %s\n" "(table)" "$state" "$detail"
    printf '%d traces: %d done, %d running, %d failed, %d waiting' \
        $((n_done + n_fail + n_run + n_wait + n_int)) $n_done $n_run $n_fail $n_wait
    [ $n_int = 0 ] || printf ', %d interrupted' $n_int
    echo
    [ $n_fail = 0 ] && [ $n_int = 0 ] || exit 1
}

# ---- options ------------------------------------------------------------------
out="" jobs="" study="" pipeline="" force="" slurm="" status_dir="" sbatch_opts="" repeat="" shards="" split=""
quiet="" input_format=""
manifests=""
need() { [ $# -ge 2 ] || usage_error "$1: missing argument"; }
# --sbatch-args: the words of $1 as sh splits them ('a b', "a b", a\ b),
# nothing expanded (xargs(1) reads the quotes), each quoted for submit.sh
sbatch_words() {
    plain --sbatch-args "$1"
    words=$(printf '%s' "$1" | xargs -r printf '%s\n' 2>&1) ||
        usage_error "--sbatch-args: $(printf '%s\n' "$words" | sed -n 's/^xargs: //; s/;.*//; 1p')"
    while IFS= read -r w; do
        [ -z "$w" ] || sbatch_opts="$sbatch_opts $(quote "$w")"
    done <<EOF
$words
EOF
}
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help) printf '%s\n' "$usage"; exit 0 ;;
    --list-options)     # hidden, for tests/help.bats: the options of this loop
        sed -n '/^while \[ \$# -gt 0 \]; do$/,/^done$/p' "$0" | grep -oE -- '^ +(-[a-z-]+)( \| -[a-z-]+)*\)' |
            grep -oE -- '-[a-z-]+' | grep -vxe -- -e --list-options -e --list-deprecated
        exit 0 ;;
    --list-deprecated)  # hidden, for tests/options.bats: the old spellings, as cli_getopt_old
        printf '%s\t%s\t%s\n' -s --study --study
        exit 0 ;;
    --version) echo "rft-batch (rftrace) $(rft-view --version | sed 's/.* //')"; exit 0 ;;
    --list)
        for s in $studies; do printf '%-10s %s\n' "$s" "$(study_about "$s")"; done
        exit 0 ;;
    -o | --output) need "$@"; out=$2; shift ;;
    --output=*) out=${1#*=} ;;
    -j | --jobs) need "$@"; jobs=$2; shift ;;
    -j*) jobs=${1#-j} ;;
    --jobs=*) jobs=${1#*=} ;;
    --study) need "$@"; study=$2; shift ;;
    "-s")   # -s is --summary FILE in every program (rft(1), OPTIONS)
        echo "$prog: warning: -s for --study is deprecated, use --study (rft(1), OPTIONS)" >&2
        need "$@"; study=$2; shift ;;
    --study=*) study=${1#*=} ;;
    --pipeline) need "$@"; pipeline=$2; shift ;;
    --pipeline=*) pipeline=${1#*=} ;;
    -m | --manifest) need "$@"; manifests="$manifests$2
"; shift ;;
    --manifest=*) manifests="$manifests${1#*=}
" ;;
    --shards) need "$@"; shards=$2; shift ;;
    --shards=*) shards=${1#*=} ;;
    --split) need "$@"; split=$2; shift ;;
    --split=*) split=${1#*=} ;;
    -r | --repeat) need "$@"; repeat=$2; shift ;;
    --repeat=*) repeat=${1#*=} ;;
    --input-format) need "$@"; input_format=$2; shift ;;
    --input-format=*) input_format=${1#*=} ;;
    --force) force=1 ;;
    --quiet) quiet=1 ;;
    --slurm) slurm=1 ;;
    --partition | --time | --mem)
        need "$@"; plain "$1" "$2"; sbatch_opts="$sbatch_opts $1=$(quote "$2")"; slurm_opt=$1; shift ;;
    --partition=* | --time=* | --mem=*)
        plain "${1%%=*}" "${1#*=}"
        sbatch_opts="$sbatch_opts ${1%%=*}=$(quote "${1#*=}")"; slurm_opt=${1%%=*} ;;
    --sbatch-args) need "$@"; sbatch_words "$2"; slurm_opt=$1; shift ;;
    --sbatch-args=*) sbatch_words "${1#*=}"; slurm_opt=--sbatch-args ;;
    --status) need "$@"; status_dir=$2; shift ;;
    --status=*) status_dir=${1#*=} ;;
    --) shift; break ;;
    -?*) usage_error "unknown option '$1'" ;;
    *) break ;;
    esac
    shift
done

plain -o "$out"
plain --status "$status_dir"
plain --pipeline "$pipeline"
plain --study "$study"
for a in "$@"; do plain "a trace" "$a"; done
while IFS= read -r m; do plain --manifest "$m"; done <<EOF
$manifests
EOF
if [ -n "$status_dir" ]; then
    [ -z "$out$study$pipeline$force$slurm$input_format" ] && [ $# = 0 ] && [ -z "$manifests" ] ||
        usage_error "--status takes a batch folder and nothing else"
    out=$status_dir
    status
    exit 0
fi
[ -n "$out" ] || usage_error "no output folder (-o DIR)"
[ -z "$study" ] || [ -z "$pipeline" ] || usage_error "--study and --pipeline do not go together"
if [ -z "$slurm" ] && [ -n "${slurm_opt:-}" ]; then usage_error "$slurm_opt: only with --slurm"; fi
if [ -n "$slurm" ]; then
    # Slurm expands % in the jobs' output file names (slurm/%A_%a.out, in
    # the folder), and a \ turns that off: neither can be quoted there
    case $out in /*) abs=$out ;; *) abs=$PWD/$out ;; esac
    case $abs in *%* | *\\*)
        usage_error "--slurm: the batch folder's path '$abs' has a % or a \\, which Slurm reads in its output file names" ;;
    esac
fi
[ -z "$pipeline" ] || study=pipeline
if [ -n "$study" ] && [ "$study" != pipeline ]; then
    case " $studies " in
    *" $study "*) ;;
    *) usage_error "--study: '$study' is not one of $(echo $studies | sed 's/ /, /g')" ;;
    esac
fi
if [ -n "$input_format" ]; then
    case " $sim_formats " in
    *" $input_format "*) ;;
    *) usage_error "--input-format: '$input_format' is not one of $(echo $sim_formats | sed 's/ /, /g') (rft streams, text and CSV traces are taken without it)" ;;
    esac
fi
if [ -n "$repeat" ]; then
    case $repeat in once | steady) ;; '' | *[!0-9]* | 0*) usage_error "-r: '$repeat' is not once, steady or a number of runs from 1" ;; esac
fi
if [ -n "$shards" ]; then
    case $shards in '' | *[!0-9]* | 0* | 1) usage_error "--shards: '$shards' is not a number of shards from 2" ;; esac
fi
case $split in '' | auto | yes | no) ;; *) usage_error "--split: '$split' is not auto, yes or no" ;; esac
[ "$split" != yes ] || [ -z "$slurm" ] ||
    usage_error "--split yes: not with --slurm (every task would cut the whole trace; its shards read the whole: --split no)"
if [ -n "$jobs" ]; then
    case $jobs in '' | *[!0-9]* | 0*) usage_error "-j: '$jobs' is not a number of jobs from 1" ;; esac
else
    [ -n "$slurm" ] && jobs=1 || jobs=$(nproc)
fi
# -j N tasks at once share the cores: each rft run on one thread unless
# RFT_THREADS says otherwise (rft(1): rft run --threads)
[ "$jobs" = 1 ] || export RFT_THREADS="${RFT_THREADS:-1}"

if [ -n "$slurm" ]; then
    command -v sbatch >/dev/null 2>&1 ||
        die "--slurm: sbatch not found: Slurm's client is not installed (or run without --slurm)"
fi

# ---- the run ---------------------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rft-batch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT         # the EXIT trap runs
trap 'exit 143' TERM
trap 'exit 129' HUP
: >"$tmp/traces"
: >"$tmp/found"
: >"$tmp/named"
: >"$tmp/skipped"
: >"$tmp/relabelled"
: >"$tmp/relabels"
: >"$tmp/broken"
for a in "$@"; do
    if [ -d "$a" ]; then add_folder "${a%/}"; else add_trace "$a"; fi
done
if [ -n "$manifests" ]; then
    while IFS= read -r m; do [ -z "$m" ] || add_manifest "$m"; done <<EOF
$manifests
EOF
fi

if [ -e "$out" ] && [ ! -d "$out" ]; then die "$out: not a folder"; fi
mkdir -p "$out" 2>"$tmp/err" || die "$out: cannot create: $(sed 's/.*: //' "$tmp/err")"
( : >"$out/.lock" ) 2>/dev/null || die "$out: not writable"
exec 9>>"$out/.lock"
flock -n 9 || die "$out: another rft-batch is running on this folder"

# the study of an earlier run of this folder
old=""
[ ! -f "$out/Makefile" ] || old=$(sed -n 's/^study = //p' "$out/Makefile")
if [ -n "$old" ] && [ -n "$study" ] && [ "$old" != "$study" ]; then
    die "$out: holds a batch of the $old study, not $study (use another folder)"
fi
study=${study:-${old:-aging}}
if [ -n "$repeat" ]; then
    [ "$study" = aging ] || usage_error "-r: only the aging study repeats a kernel"
    was=$(sed -n 's/^REPEAT = //p' "$out/Makefile" 2>/dev/null || :)
    [ -z "$was" ] || [ "$was" = "$repeat" ] ||
        die "$out: holds a batch of kernels run $was times, not $repeat (use another folder)"
fi
if [ -n "$shards" ]; then
    [ "$study" != pipeline ] || usage_error "--shards: a pipeline of your own is not sharded (see rft-batch(1))"
    [ ! -f "$out/Makefile" ] || [ "$(sed -n 's/^SHARDS = //p' "$out/Makefile")" = "$shards" ] ||
        die "$out: holds a batch made in $(sed -n 's/^SHARDS = //p' "$out/Makefile" | grep . || echo 1) shard(s), not $shards (use another folder)"
fi
[ -z "$shards" ] && [ -f "$out/Makefile" ] && shards=$(sed -n 's/^SHARDS = //p' "$out/Makefile")
if [ "$study" = pipeline ] && [ -n "$old" ] && [ -n "$pipeline" ] &&
    ! grep -q -F -- "$(study_rules pipeline | tail -n 1)" "$out/Makefile"; then
    die "$out: holds a batch of another pipeline (use another folder)"
fi
results=$(study_results "$study")

if [ ! -s "$tmp/traces" ]; then      # no inputs: the traces of the earlier run
    [ -f "$out/traces.tsv" ] || usage_error "no traces"
    cp "$out/traces.tsv" "$tmp/traces"
    [ ! -f "$out/traces.mk" ] || sed -n 's/^FORMAT_\([^ ]*\) = \([a-z0-9]*\)$/\1	\2/p' "$out/traces.mk" >"$tmp/named"
    rerun=1
fi
dup=$(cut -f1 "$tmp/traces" | sort | uniq -d | head -n 1)
[ -z "$dup" ] || die "two traces labelled '$dup' (give labels in a manifest)"

# --shards by default (a study of the suite, here, a new folder): the jobs a trace has,
# -j over the traces, when that is 2 or more and a trace file is at least
# SHARD_MIN bytes (a smaller trace's shards cost more in processes and
# merging than they save); at most 64
SHARD_MIN=$((8 << 20))
if [ -z "$shards" ] && [ ! -f "$out/Makefile" ] && [ "$study" != pipeline ] && [ -z "$slurm" ]; then
    s=$((jobs / $(wc -l <"$tmp/traces")))
    [ $s -le 64 ] || s=64
    big=$(cut -f3 "$tmp/found" | sort -n | tail -n 1)
    if [ $s -ge 2 ] && [ "${big:-0}" -ge $SHARD_MIN ]; then
        shards=$s
    fi
fi
# --split (rft-split(1)): reading the whole trace costs each shard one more
# pass over it (decompressing and framing, about 0.6 zstd -dc), the split one
# pass of its own before any shard starts (about 3.5 zstd -dc: bench/scaling.md).
# When every shard has a job of its own the serial split only delays them;
# when they queue behind each other, their CPU is the run time and the split
# saves it from about 7 shards up.  On Slurm every task would cut the trace
# again: the shards read the whole.
if [ -f "$out/Makefile" ]; then
    was=$(sed -n 's/^SPLIT = //p' "$out/Makefile")
    [ -z "$split" ] || [ "$split" = auto ] || [ "$split" = "${was:-none}" ] ||
        die "$out: holds a batch made with --split ${was:-(none)}, not $split (use another folder)"
elif [ "${shards:-1}" != 1 ]; then
    if [ -z "$split" ] || [ "$split" = auto ]; then
        split=no
        [ -n "$slurm" ] || [ $((shards * $(wc -l <"$tmp/traces"))) -le "$jobs" ] || split=yes
    fi
elif [ "$split" = yes ] || [ "$split" = no ]; then
    usage_error "--split: without shards (--shards N) there is nothing to split"
fi
if [ ! -f "$out/Makefile" ]; then
    write_makefile >"$tmp/Makefile"
    mv "$tmp/Makefile" "$out/Makefile"
fi
trace_dir
{
    echo "# written by rft-batch: the defaults of rft-collect(1)"
    echo "results $results"
    echo "columns $(study_columns "$study")"
    [ -z "$tsub" ] || echo "folders ${tsub%/}"
    # what the figures assumed: each trace's runs and its tables' notes
    if [ "$study" = aging ]; then
        echo "runs runs $(sed -n 's/^REPEAT = //p' "$out/Makefile")"
    fi
    # a trace labelled other than its file's name says which file it is
    echo "notes label.notes"
} >"$tmp/collect.conf"
mv "$tmp/collect.conf" "$out/collect.conf"
{
    printf 'TRACES ='; cut -f1 "$tmp/traces" | tr '\n' ' '; echo
    # the traces rft-decode is told the format of (--input-format)
    sed 's/^\([^	]*\)	\(.*\)$/FORMAT_\1 = \2/' "$tmp/named"
} >"$tmp/traces.mk"
mv "$tmp/traces.mk" "$out/traces.mk"
cp "$tmp/traces" "$out/traces.tsv.part"
mv "$out/traces.tsv.part" "$out/traces.tsv"

# a trace's folder: its input, then what the study makes of it; what a
# killed run left (temporaries of make's rules, of the stages and of LINK,
# in the folder and its shards' folders; a log) goes
while IFS='	' read -r l p; do
    d=$out/$tsub$l
    if [ -n "$force" ]; then rm -rf "$d"; fi
    mkdir -p "$d"
    [ "$(readlink "$d/input" 2>/dev/null)" = "$p" ] || ln -sfn "$p" "$d/input"
    rm -f "$d"/*.part "$d"/*.tmp?????? "$d"/*.rft.[0-9]* \
        "$d"/s[0-9]*/*.part "$d"/s[0-9]*/*.tmp??????
    is_done "$l" || : >"$d/log"
    # label.notes: the file of a label made from its name (issue 31), for
    # the tables' notes ("label: a_b is the file suite/a b.rft ...")
    f=$(awk -F '\t' -v l="$l" '$1 == l { print $2 " (" $3 ")"; exit }' "$tmp/relabels")
    if [ -n "$f" ]; then
        printf '%s is the file %s\n' "$l" "$f" >"$d/label.notes"
    elif [ -z "${rerun:-}" ]; then
        rm -f "$d/label.notes"
    fi
done <"$out/traces.tsv"
# the traces found (and the files skipped), in inputs.txt and on standard
# error; a rerun without inputs (the traces of traces.tsv) keeps the list of
# the run that found them
if [ -z "${rerun:-}" ]; then
    list_inputs >"$tmp/inputs.txt"
    mv "$tmp/inputs.txt" "$out/inputs.txt"
    [ -n "$quiet" ] || cat "$out/inputs.txt" >&2
fi

# the table exists only after a run that completed every trace
rm -rf "$out/table.txt" "$out/table.tsv" "$out/table.csv" "$out/table.json" "$out/figures" \
    "$out/collect.log" "$out/interrupted"

if [ -n "$slurm" ]; then
    run_slurm
else
    run_local
fi
# a file named as a trace that is none fails the batch, the others done
if [ -s "$tmp/broken" ]; then
    cat "$tmp/broken" >&2
    exit 1
fi
