# rft-batch, part: the Makefile rules of the undervolt and healing studies, with shards or
# without.
# bin/sh/rft-batch.sh includes it where it says "# @include batch/undervolt-healing.sh";
# make puts them together into bin/rft-batch.

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
