# rft-batch, part: the studies: what each makes, and the Makefile rules of the aging study,
# its shards and the split.
# bin/sh/rft-batch.sh includes it where it says "# @include batch/studies.sh";
# make puts them together into bin/rft-batch.

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
        make_dollars "$pipeline"
        printf '\t{ %s; } <$< $(SAVE)\n' "$md"
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
