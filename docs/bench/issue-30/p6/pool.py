import json,sys,glob,statistics as st,collections,re
# pool.py PREFIX : all runs per variant across rounds
d=collections.defaultdict(list); fp=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'-*-*.json')):
    m=re.match(r'.*-(\d+)-(.+)\.json',f); v=m.group(2)
    try: j=json.load(open(f))
    except Exception: continue
    for x in j['desktop']:
        d[v].append(x['cpuMsAtFirstPage']); fp[v].append(x['first-pageMs'])
for v in d:
    c=sorted(d[v]); print(f"{v:14s} n={len(c):2d} cpu median {st.median(c):.0f} mean {st.mean(c):.0f} q1 {c[len(c)//4]:.0f} q3 {c[3*len(c)//4]:.0f} | first page median {st.median(fp[v]):.0f}")
