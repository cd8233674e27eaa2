import sys,subprocess,collections,re
f=sys.argv[1]
out=subprocess.run(['perf','script','-i',f,'-F','comm,tid,ip,sym,dso'],capture_output=True,text=True).stdout
agg=collections.Counter(); tot=collections.Counter(); n=0
for line in out.splitlines():
    line=line.strip()
    if not line: continue
    m=re.match(r'(.+?)\s+(\d+)\s+([0-9a-f]+)\s+(.*)\s+\((.*)\)$',line)
    if not m: continue
    comm,tid,ip,sym,dso=m.groups(); n+=1
    if 'Interpreter' in sym: k='interp'
    elif 'JIT' in dso or 'perf-' in dso: k='jit'
    elif 'libjvm' in dso: k='jvm'
    elif 'kernel' in dso: k='kernel'
    else: k='native'
    comm=comm.strip()
    if comm.startswith('lockstep'): comm='lockstep-*'
    agg[(comm,k)]+=1; tot[comm]+=1
print('samples',n)
for c,t in tot.most_common(12):
    print(f"{c:18s} {t*100/n:5.1f}%  "+"  ".join(f"{k} {agg[(c,k)]*100/n:4.1f}" for k in ['interp','jit','jvm','kernel','native']))
print('all', "  ".join(f"{k} {sum(v for (c,kk),v in agg.items() if kk==k)*100/n:4.1f}" for k in ['interp','jit','jvm','kernel','native']))
