import re, sys, collections
txt = open(sys.argv[1]).read(); target = sys.argv[2]; thread = sys.argv[3] if len(sys.argv) > 3 else None
evs = txt.split('jdk.ExecutionSample {')[1:]
c = collections.Counter(); n = 0
for e in evs:
    if thread and ('sampledThread = "%s"' % thread) not in e: continue
    frames = re.findall(r'^\s+([\w$.<>/]+)\(', e, re.M)
    if target not in frames: continue
    n += 1
    i = frames.index(target)
    below = frames[:i]
    # callee one level below target and the next lockstep/other level
    if below:
        c[' > '.join(reversed(below[-3:]))] += 1
    else:
        c['(self)'] += 1
print(target, n)
for k, v in c.most_common(int(sys.argv[4]) if len(sys.argv) > 4 else 25): print(v, k)
