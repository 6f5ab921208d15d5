#!/usr/bin/env python3
"""Summarises tools/idle_bench.sh's JSON lines: medians, paired ratios, 2-core over 1-core."""
import sys
import json
import statistics as st
rows=[json.loads(l) for l in open(sys.argv[1])]
d={r['label']:r for r in rows}
def ms(l):
    r=d.get(l); 
    return r['res']['median_ms_per_step'] if r and r['res'] else None
loads=[r['load'] for r in rows]
print("loads: %.2f-%.2f (median %.2f), %d measurements"%(min(loads),max(loads),st.median(loads),len(rows)))
print("A: MWM-20, 2 cores, median ms (5 rounds), median of paired ratios")
for rec in ['best','paper']:
    for a,b,name in [('def-512','ob-skx','AVX-512 vs OpenBLAS SkylakeX'),('def-avx2','ob-hsw','AVX2 vs OpenBLAS Haswell')]:
        x=[ms(f"{rec}-{a}-r{r}") for r in range(1,6)]; y=[ms(f"{rec}-{b}-r{r}") for r in range(1,6)]
        if None in x or None in y: print(f"  {rec} {name}: not measured"); continue
        rat=[p/q for p,q in zip(x,y)]
        print(f"  {rec} {name}: ours {st.median(x):.1f} ({min(x):.1f}-{max(x):.1f}), OpenBLAS {st.median(y):.1f} ({min(y):.1f}-{max(y):.1f}); ratio median {st.median(rat):.3f} ({min(rat):.3f}-{max(rat):.3f})")
def peer(t,r):
    """The peer at its best in round r: OpenBLAS's own kernels or SkylakeX's, the faster."""
    return min(v for v in (ms(f"peer-{t}-r{r}"),ms(f"peer-{t}-skx-r{r}")) if v is not None)
for t in ['1t','2t']:
    p=[peer(t,r) for r in range(1,6)]
    print(f"  peer {t} (best of its OpenBLAS kernels): {st.median(p):.1f} ({min(p):.1f}-{max(p):.1f})")
for rec in ['paper','best']:
  for a in ['def-512','def-avx2']:
    x=[ms(f"{rec}-{a}-r{r}") for r in range(1,6)]
    if None in x: continue
    for t in ['1t','2t']:
        p=[peer(t,r) for r in range(1,6)]
        rat=[q/w for w,q in zip(x,p)]
        print(f"  peer {t} / ours {rec} {a}: median {st.median(rat):.2f} ({min(rat):.2f}-{max(rat):.2f})")
print("B: 2-core over 1-core step time (bench --steps 6 --versus-cores 1 at 2 cores), 3 rounds")
for s in ["mwm-50-paper","mwm-20-best","tsp-50-best","tsp-20-best","sort-50-best","gm-50-best","gm-20-best"]:
    t1=[d[f"{s}-p2-r{r}"]['res']['versus_median_ms'] if ms(f"{s}-p2-r{r}") else None for r in range(1,4)]
    t2=[ms(f"{s}-p2-r{r}") for r in range(1,4)]
    if None in t1 or None in t2 or ms(f"{s}-p1-r1") is None: print(s,'missing'); continue
    rat=[d[f"{s}-p2-r{r}"]['res']['ratio_to_versus'] for r in range(1,4)]
    ss=[d[f"{s}-p1-r{r}"]['res']['serial_share'] for r in range(1,4)]
    print(f"  {s}: T1 {st.median(t1):.1f} ms, T2 {st.median(t2):.1f} ms; T2/T1 median {st.median(rat):.3f} ({min(rat):.3f}-{max(rat):.3f}); 1-core serial share {min(ss)*100:.1f}-{max(ss)*100:.1f}%")
