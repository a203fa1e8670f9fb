#===- rank-flow-model.py - expected output of rank-flow-*.bsgp -------------===#
#
# Part of bsgpc, the BSGP compiler.
#
#===------------------------------------------------------------------------===#
#
# The threads of test/Execution/rank-flow-loops.bsgp and rank-flow-shapes.bsgp
# as a Python list in rank order, each a dict of its variables; a move
# reorders (or shortens, or expands) the list, a get indexes it. Prints the
# lines both tests check, those of rank-flow-loops first (35 lines), then
# those of rank-flow-shapes.
#
#===------------------------------------------------------------------------===#
N, M = 8, 3

def move(th, p):
    s = len(th)
    if p == 'sortby':
        return sorted(th, key=lambda t: t['key'])  # stable
    if p == 'kill':
        return [t for t in th if not (t['key'] % 4 == 1 and s > 2)]
    if p == 'split':
        return ([t for t in th if t['key'] % 2 != 1] +
                [t for t in th if t['key'] % 2 == 1])
    if p == 'fork':
        out = []
        for t in th:
            for c in range(1 + t['key'] % 2):
                u = dict(t)
                u['key'] = t['key'] + c
                out.append(u)
        return out
    if p == 'reassign':  # thread.oldrank = size - 1 - rank
        return th[::-1]

def step(th, p):
    th = move(th, p)
    s = len(th)
    ws = [th[(r + 1) % s]['v'] for r in range(s)]
    for t, w in zip(th, ws):
        t['acc'] = t['acc'] * 3 + w
        t['v'] += 1000 * (t['key'] + 1)
        t['key'] = (t['key'] * 3 + 1) % N
    return th

def read(th):
    s = len(th)
    ws = [th[(r + 1) % s]['v'] for r in range(s)]
    qs = [dict(a=th[(r + 2) % s]['a'], b=th[(r + 2) % s]['b']) for r in range(s)]
    for t, w, q in zip(th, ws, qs):
        t['acc'] = t['acc'] * 3 + w + q['a'] * 2 + int(q['b']) + t['arr0'] - t['arr1']
        t['v'] += 1000 * (t['key'] + 1)
        t['a'] += t['key']
        t['b'] += 0.5
        t['arr1'] += 1
        t['key'] = (t['key'] * 3 + 1) % N
    return th

ITERS = {'if': 1, 'else': 1, 'for': 3, 'while': M, 'do': M, 'forif': 2, 'iffor': 2}

def threads():
    return [dict(v=100 + r * 7, key=(r * 5 + 3) % N, acc=0, a=r * 3, b=0.25 * r,
                 arr0=r * 11, arr1=r) for r in range(N)]

def part_a(p, ctx):
    th = threads()
    for _ in range(ITERS[ctx]):
        th = step(th, p)
    return f'{p}_{ctx} {len(th)}:' + ''.join(f' {t["acc"]}/{t["v"]}' for t in th)

def part_b(p, shape):
    th = threads()
    if shape == 'pre':
        th = move(th, p)
        th = read(th)
    elif shape == 'tail':
        for _ in range(3):
            th = move(read(th), p)
    elif shape == 'after':
        th = read(move(th, p))
    elif shape == 'ifget':
        for i in range(2):
            th = move(th, p)
            if M > i:
                th = read(th)
    elif shape == 'elseloop':
        for _ in range(2):
            th = read(move(th, p))
    elif shape == 'cont':
        for i in range(3):
            th = read(th)
            if i == 1:
                continue
            th = move(th, p)
    return f'{p}_{shape} {len(th)}:' + ''.join(
        f' {t["acc"]}/{t["v"]}/{t["a"] * 100 + int(t["b"] * 4)}/{t["arr0"] * 100 + t["arr1"]}'
        for t in th)

MOVES = ['sortby', 'kill', 'split', 'fork', 'reassign']
for ctx in ['if', 'else', 'for', 'while', 'do', 'forif', 'iffor']:
    for p in MOVES:
        print(part_a(p, ctx))
for s in ['pre', 'tail', 'after', 'ifget', 'elseloop', 'cont']:
    for p in MOVES:
        print(part_b(p, s))
