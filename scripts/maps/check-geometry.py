#!/usr/bin/env python3
"""Check a geometry file against its variant's adjacency graph, on the output data only.

Two provinces share a border (some ring segment (a,b) of one equals (a,b) or (b,a) of the other)
exactly when they are adjacent on the board (an army or fleet line connects them). Also: every
province is present, rings are closed implicitly (first point not repeated), have 3+ points,
integer coordinates inside the frame, do not cross themselves, and neighbouring provinces do not
overlap; label, unit, centre (supply centres only) and coast points lie inside the province.
Usage: check-geometry.py standard maharajah   (exit status 1 on any problem)
"""
import json
import os
import sys
from collections import defaultdict

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


def read_map(path):
    provs, centres, adj, coasts = [], {}, defaultdict(set), {}
    for line in open(path, encoding='utf-8'):
        t = line.split('#', 1)[0].split()
        if not t:
            continue
        if t[0] == 'prov':
            provs.append(t[1]); centres[t[1]] = t[3] != '-'
        elif t[0] == 'coasts':
            coasts[t[1]] = set(t[2:])
        elif t[0] in ('army', 'fleet'):
            a = t[1].split('/')[0]
            for b in t[2:]:
                b = b.split('/')[0]
                adj[a].add(b); adj[b].add(a)
    return provs, centres, adj, coasts


def inside(pt, rings):
    """Even-odd point in polygon over all rings; points on an edge count as outside."""
    x, y = pt
    c = False
    for r in rings:
        n = len(r)
        for i in range(n):
            (x1, y1), (x2, y2) = r[i], r[(i + 1) % n]
            if (x1 - x) * (y2 - y) == (x2 - x) * (y1 - y) and min(x1, x2) <= x <= max(x1, x2) and min(y1, y2) <= y <= max(y1, y2):
                return False
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                c = not c
    return c


def check(variant):
    errs = []
    provs, centres, adj, coasts = read_map(os.path.join(ROOT, 'crates', 'diplomacy', 'variants', f'{variant}.map'))
    g = json.load(open(os.path.join(ROOT, 'crates', 'cartography', 'geometry', f'{variant}.json')))
    W, H = g['width'], g['height']
    P = g['provinces']
    if g.get('variant') != variant:
        errs.append(f'variant field is {g.get("variant")!r}')
    for p in provs:
        if p not in P:
            errs.append(f'{p}: missing')
    for p in P:
        if p not in provs:
            errs.append(f'{p}: not a province of the map')
    seg_owner = defaultdict(set)
    for p, e in P.items():
        if not e.get('rings'):
            errs.append(f'{p}: no rings')
        for k, r in enumerate(e.get('rings', [])):
            if len(r) < 3:
                errs.append(f'{p}: ring {k} has {len(r)} points')
            if r and r[0] == r[-1]:
                errs.append(f'{p}: ring {k} repeats its first point')
            for q in r:
                if not (isinstance(q[0], int) and isinstance(q[1], int) and 0 <= q[0] <= W and 0 <= q[1] <= H):
                    errs.append(f'{p}: ring {k} point {q} not an integer point of the frame'); break
            for i in range(len(r)):
                a, b = tuple(r[i]), tuple(r[(i + 1) % len(r)])
                if a == b:
                    errs.append(f'{p}: ring {k} repeats point {a}')
                seg_owner[(min(a, b), max(a, b))].add(p)
        for key in ('label', 'unit') + (('centre',) if centres.get(p) else ()):
            if key not in e:
                errs.append(f'{p}: no {key}')
            elif not inside(e[key], e['rings']):
                errs.append(f'{p}: {key} {e[key]} not inside')
        if not centres.get(p) and 'centre' in e:
            errs.append(f'{p}: centre given but not a supply centre')
        want_coasts = coasts.get(p, set())
        got_coasts = set(e.get('coasts', {}))
        if want_coasts != got_coasts:
            errs.append(f'{p}: coasts {sorted(got_coasts)} but the map has {sorted(want_coasts)}')
        for co, pt in e.get('coasts', {}).items():
            if not inside(pt, e['rings']):
                errs.append(f'{p}: coast {co} point {pt} not inside')
    shares = set()
    for owners in seg_owner.values():
        o = sorted(owners)
        for i in range(len(o)):
            for j in range(i + 1, len(o)):
                shares.add((o[i], o[j]))
    want = {tuple(sorted((a, b))) for a in adj for b in adj[a] if a in P and b in P}
    for a, b in sorted(want - shares):
        errs.append(f'adjacent on the board but no shared border: {a}-{b}')
    for a, b in sorted(shares - want):
        errs.append(f'shared border but not adjacent on the board: {a}-{b}')
    # shape sanity with shapely when available: rings do not cross themselves, neighbours do not overlap
    try:
        from shapely.geometry import Polygon
        from shapely.ops import unary_union
        shapes = {}
        for p, e in P.items():
            parts = []
            for k, r in enumerate(e['rings']):
                pg = Polygon(r)
                a = abs(Polygon(r).area)
                if abs(pg.buffer(0).area - a) > 0.01 + 1e-6 * a:
                    errs.append(f'{p}: ring {k} crosses itself')
                parts.append(pg.buffer(0))
            shapes[p] = unary_union(parts)
        for a, b in sorted(want | shares):
            ov = shapes[a].intersection(shapes[b]).area
            if ov > 0.05:
                errs.append(f'{a} and {b} overlap (area {ov:.2f})')
    except ImportError:
        print('(shapely not installed: crossing and overlap checks skipped)')
    return errs, len(P), len(want), sum(len(r) for e in P.values() for r in e['rings'])


def main():
    bad = False
    for v in sys.argv[1:] or ['standard', 'maharajah']:
        errs, n, nb, npts = check(v)
        for e in errs:
            print(f'{v}: {e}')
        print(f'{v}: {n} provinces, {nb} borders, {npts} ring points: ' + ('OK' if not errs else f'{len(errs)} problems'))
        bad |= bool(errs)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
