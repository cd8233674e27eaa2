import re, sys, collections
txt = open(sys.argv[1]).read()
evs = txt.split('jdk.ExecutionSample {')[1:]
by_thread = collections.Counter()
incl = collections.defaultdict(collections.Counter)
top = collections.defaultdict(collections.Counter)
lockstep = collections.defaultdict(collections.Counter)
for e in evs:
    m = re.search(r'sampledThread = "([^"]*)"', e)
    t = m.group(1) if m else '?'
    by_thread[t] += 1
    frames = re.findall(r'^\s+([\w$.<>/]+)\(', e, re.M)
    if frames: top[t][frames[0]] += 1
    seen = set()
    for f in frames:
        parts = f.split('.')
        pkg = '.'.join(parts[:3])
        if pkg not in seen:
            seen.add(pkg); incl[t][pkg] += 1
    for f in frames:
        if f.startswith('org.lockstep'):
            lockstep[t][f] += 1
            break
want = sys.argv[2:] or [t for t,_ in by_thread.most_common(4)]
print(by_thread.most_common(15))
for t in want:
    print('\n==', t, by_thread[t])
    print(' inclusive:', incl[t].most_common(25))
    print(' top:', top[t].most_common(12))
    print(' first lockstep frame:', lockstep[t].most_common(15))
