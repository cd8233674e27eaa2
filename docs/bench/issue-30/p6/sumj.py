import json,sys,statistics as st
d=json.load(open(sys.argv[1]))
ds=d['desktop']
cpu=[x['cpuMsAtFirstPage'] for x in ds]; fp=[x['first-pageMs'] for x in ds]; idle=[x.get('idleRssKb',0)/1024 for x in ds]
print(f"  cpu {sorted(cpu)} med {st.median(cpu):.0f} | first-page med {st.median(fp):.0f} | idle MB {[round(i) for i in idle]} | {d['loadAverageAfter'][:14]}")
