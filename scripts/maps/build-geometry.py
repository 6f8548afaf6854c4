#!/usr/bin/env python3
"""Build the map geometry of a Diplomacy variant for the Chancery renderer.

Offline tool (never run by the build). Inputs:
  * the variant's .map file (crates/diplomacy/variants/<variant>.map): provinces, kinds, adjacency;
  * Natural Earth land polygons (public domain) from the npm package world-atlas (ISC), file
    land-50m.json (TopoJSON), fetched once: cd /tmp && npm pack world-atlas@2 && tar xzf world-atlas-2*.tgz
  * scripts/maps/seeds-<variant>.json: the frame, the projection, hand-made mask edits and the
    province seeds, all in longitude/latitude, placed by hand from real-world geography by the
    Chancery project.
Method: project Natural Earth land to a cell grid (land/sea mask), apply the mask edits, grow the
provinces from their seeds by a constrained multi-source flood fill (a cell joins a province only
if every assigned 4-neighbour belongs to it or to a province adjacent to it on the board), trace
the regions into rings along cell edges, simplify every shared border chain once (both sides get
the same vertices), place the label/unit/centre/coast points.

Usage: build-geometry.py [--atlas DIR] [--preview DIR] standard maharajah
Writes crates/cartography/geometry/<variant>.json.
"""
import argparse
import heapq
import json
import math
import os
import sys
from collections import defaultdict, deque

import numpy as np
from PIL import Image, ImageDraw
from shapely.geometry import Polygon, box, Point
from shapely.ops import unary_union

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))

# ---------------------------------------------------------------- the .map file

def read_map(path):
    provs, kinds, centres, adj, coasts = [], {}, {}, defaultdict(set), {}
    fleet_coast = defaultdict(set)  # (prov, coast) -> adjacent provinces
    for line in open(path, encoding='utf-8'):
        line = line.split('#', 1)[0].split()
        if not line:
            continue
        if line[0] == 'prov':
            provs.append(line[1]); kinds[line[1]] = line[2]; centres[line[1]] = line[3] != '-'
        elif line[0] == 'coasts':
            coasts[line[1]] = line[2:]
        elif line[0] in ('army', 'fleet'):
            src = line[1].split('/')
            for t in line[2:]:
                t = t.split('/')[0]
                adj[src[0]].add(t); adj[t].add(src[0])
                if len(src) > 1:
                    fleet_coast[(src[0], src[1])].add(t)
    return provs, kinds, centres, adj, coasts, fleet_coast

# ---------------------------------------------------------------- projection

class Proj:
    def __init__(self, spec):
        self.kind = spec['kind']
        if self.kind == 'lcc':
            p1, p2 = math.radians(spec['lat1']), math.radians(spec['lat2'])
            self.l0 = math.radians(spec['lon0']); f0 = math.radians(spec['lat0'])
            n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
                math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
            self.n = n
            self.F = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
            self.r0 = self.F / math.tan(math.pi / 4 + f0 / 2) ** n
        else:  # equirectangular scaled by cos(lat0)
            self.k = math.cos(math.radians(spec['lat0']))

    def __call__(self, lon, lat):
        lon = np.asarray(lon, dtype=float); lat = np.asarray(lat, dtype=float)
        if self.kind == 'lcc':
            r = self.F / np.tan(np.pi / 4 + np.radians(lat) / 2) ** self.n
            th = self.n * (np.radians(lon) - self.l0)
            return r * np.sin(th), -(self.r0 - r * np.cos(th))  # y grows southwards
        return np.radians(lon) * self.k, -np.radians(lat)

# ---------------------------------------------------------------- Natural Earth (TopoJSON)

def topo_polygons(path):
    d = json.load(open(path))
    sx, sy = d['transform']['scale']; tx, ty = d['transform']['translate']
    arcs = []
    for a in d['arcs']:
        x = y = 0; pts = []
        for dx, dy in a:
            x += dx; y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)

    def ring(ids):
        out = []
        for i in ids:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts if not out else pts[1:])
        return out

    polys = []
    for g in d['objects']['land']['geometries']:
        if g['type'] == 'Polygon':
            polys.append([ring(r) for r in g['arcs']])
        elif g['type'] == 'MultiPolygon':
            for p in g['arcs']:
                polys.append([ring(r) for r in p])
    return polys

# ---------------------------------------------------------------- the build

class Grid:
    def __init__(self, cfg):
        self.proj = Proj(cfg['projection'])
        self.width = cfg.get('width', 1000)
        self.cell = cfg.get('cell', 2)
        fr = np.array(cfg['frame'], dtype=float)  # lon/lat points whose projections bound the frame
        x, y = self.proj(fr[:, 0], fr[:, 1])
        lo0, la0 = fr.min(axis=0); lo1, la1 = fr.max(axis=0)
        crop = cfg.get('crop', [0, 0, 0, 0])  # fractions cut off left, top, right, bottom
        x0, x1, y0, y1 = x.min(), x.max(), y.min(), y.max()
        w, h = x1 - x0, y1 - y0
        x0, x1 = x0 + crop[0] * w, x1 - crop[2] * w
        y0, y1 = y0 + crop[1] * h, y1 - crop[3] * h
        self.scale = self.width / (x1 - x0)
        self.x0, self.y0 = x0, y0
        self.height = int(round((y1 - y0) * self.scale / self.cell)) * self.cell
        self.W, self.H = self.width // self.cell, self.height // self.cell
        self.lonlat_box = (lo0 - 25, max(-89, la0 - 8), lo1 + 25, min(89, la1 + 8))

    def px(self, lon, lat):
        x, y = self.proj(lon, lat)
        return (x - self.x0) * self.scale, (y - self.y0) * self.scale

    def cellof(self, lon, lat):
        x, y = self.px(lon, lat)
        return int(y // self.cell), int(x // self.cell)


def rasterize(grid, polys, ss=4):
    """Land mask: Natural Earth polygons clipped in lon/lat, projected, drawn with supersampling."""
    W, H, c = grid.W, grid.H, grid.cell
    img = Image.new('L', (W * ss, H * ss), 0)
    dr = ImageDraw.Draw(img)
    lo0, la0, lo1, la1 = grid.lonlat_box
    f = ss / c
    for p in polys:
        ext = np.array(p[0])
        if ext[:, 0].max() < lo0 or ext[:, 0].min() > lo1 or ext[:, 1].max() < la0 or ext[:, 1].min() > la1:
            continue
        for k, ring in enumerate(p):
            # clamping to a box keeps the coverage inside the box and avoids wrapping the projection
            r = np.array(ring)
            r[:, 0] = np.degrees(np.unwrap(np.radians(r[:, 0])))  # edges across the antimeridian
            r[:, 0] -= 360 * np.round(np.median(r[:, 0]) / 360)
            r = np.stack([np.clip(r[:, 0], lo0, lo1), np.clip(r[:, 1], la0, la1)], axis=1)
            # densify long (clamped) edges so that they follow the projected box
            seg = np.hypot(*(np.diff(r, axis=0)).T)
            if (seg > 0.5).any():
                out = [r[:1]]
                for a, b, L in zip(r[:-1], r[1:], seg):
                    m = max(1, int(L / 0.5))
                    t = np.arange(1, m + 1)[:, None] / m
                    out.append(a + (b - a) * t)
                r = np.concatenate(out)
            x, y = grid.px(r[:, 0], r[:, 1])
            dr.polygon(list(zip(x * f, y * f)), fill=255 if k == 0 else 0)
    a = np.asarray(img, dtype=np.float32).reshape(H, ss, W, ss).mean(axis=(1, 3))
    return a >= 128


def draw_edits(grid, mask, blocked, edits):
    W, H, c = grid.W, grid.H, grid.cell
    for e in edits:
        img = Image.new('L', (W, H), 0)
        dr = ImageDraw.Draw(img)
        pts = np.array(e['points'], dtype=float)
        x, y = grid.px(pts[:, 0], pts[:, 1])
        xy = list(zip(x / c, y / c))
        if e['shape'] == 'polygon':
            dr.polygon(xy, fill=255)
        else:
            dr.line(xy, fill=255, width=int(e.get('width', 1)))
        m = np.asarray(img) > 0
        if e['set'] == 'land':
            mask |= m
        elif e['set'] == 'sea':
            mask &= ~m
        elif e['set'] == 'block':
            blocked |= m


def components(m):
    """4-connected components of a boolean array: (labels, count)."""
    from scipy import ndimage
    lab, n = ndimage.label(m)
    return lab, n


def grow(grid, cfg, provs, kinds, adj, mask, blocked):
    W, H = grid.W, grid.H
    idx = {p: i for i, p in enumerate(provs)}
    n = len(provs)
    A = np.zeros((n + 1, n + 1), dtype=bool)
    for p in provs:
        for q in adj[p]:
            A[idx[p], idx[q]] = True
        A[idx[p], idx[p]] = True
    sea = ~mask
    # the oceans: sea components holding a sea seed (lakes are the others)
    lab, _ = components(sea)
    seeds = cfg['seeds']
    ocean_ids = set()
    seedcells = []
    for p in provs:
        if p not in seeds:
            sys.exit(f'no seed for {p}')
        for lon, lat in seeds[p]:
            r, c = grid.cellof(lon, lat)
            if not (0 <= r < H and 0 <= c < W):
                print(f'warning: seed of {p} outside the frame: {lon},{lat}', file=sys.stderr)
                continue
            if kinds[p] == 'sea':
                if mask[r, c]:
                    print(f'warning: sea seed of {p} on land at {lon},{lat}', file=sys.stderr)
                    continue
                ocean_ids.add(lab[r, c])
            elif not mask[r, c]:
                print(f'warning: land seed of {p} at sea at {lon},{lat}', file=sys.stderr)
                continue
            seedcells.append((r, c, idx[p]))
    ocean = np.isin(lab, list(ocean_ids))
    near_ocean = np.zeros_like(ocean)
    near_ocean[1:, :] |= ocean[:-1, :]; near_ocean[:-1, :] |= ocean[1:, :]
    near_ocean[:, 1:] |= ocean[:, :-1]; near_ocean[:, :-1] |= ocean[:, 1:]
    weights = cfg.get('weights', {})
    w = [weights.get(p, 1.0) for p in provs]
    kind_sea = [kinds[p] == 'sea' for p in provs]
    kind_land = [kinds[p] == 'land' for p in provs]
    owner = np.full((H, W), -1, dtype=np.int32)
    heap = [(0.0, r, c, i) for r, c, i in seedcells]
    heapq.heapify(heap)
    steps = [(-1, 0, 1.0), (1, 0, 1.0), (0, -1, 1.0), (0, 1, 1.0),
             (-1, -1, 1.4142), (-1, 1, 1.4142), (1, -1, 1.4142), (1, 1, 1.4142)]
    mask_l = mask.tolist(); ocean_l = ocean.tolist(); near_l = near_ocean.tolist(); blk = blocked.tolist()
    own = owner.tolist()
    Al = A.tolist()
    while heap:
        d, r, c, i = heapq.heappop(heap)
        if own[r][c] != -1:
            continue
        if kind_sea[i]:
            if not ocean_l[r][c]:
                continue
        else:
            if not mask_l[r][c] or blk[r][c]:
                continue
            if kind_land[i] and near_l[r][c]:
                continue
        ok = True
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < H and 0 <= cc < W:
                o = own[rr][cc]
                if o != -1 and not Al[i][o]:
                    ok = False; break
        if not ok:
            continue
        own[r][c] = i
        for dr, dc, cost in steps:
            rr, cc = r + dr, c + dc
            if 0 <= rr < H and 0 <= cc < W and own[rr][cc] == -1:
                heapq.heappush(heap, (d + cost * w[i], rr, cc, i))
    owner = np.array(own, dtype=np.int32)
    return owner, ocean, A


def fill_enclosed(owner, mask, kinds, provs):
    """Give a province the unowned pockets it alone encloses (no holes), except land islands in a sea."""
    H, W = owner.shape
    un = owner < 0
    for landpart in (True, False):
        lab, n = components(un & (mask if landpart else ~mask))
        if n == 0:
            continue
        # neighbours of every component
        nb = defaultdict(set)
        for sl_a, sl_b in (((slice(1, None), slice(None)), (slice(None, -1), slice(None))),
                           ((slice(None, -1), slice(None)), (slice(1, None), slice(None))),
                           ((slice(None), slice(1, None)), (slice(None), slice(None, -1))),
                           ((slice(None), slice(None, -1)), (slice(None), slice(1, None)))):
            la = lab[sl_a]; ob = owner[sl_b]; mb = mask[sl_b]
            sel = la > 0
            for comp, o, m in zip(la[sel].tolist(), ob[sel].tolist(), mb[sel].tolist()):
                nb[comp].add(o if o >= 0 else ('L' if m else 'S'))
        edge = set(lab[0, :].tolist()) | set(lab[-1, :].tolist()) | set(lab[:, 0].tolist()) | set(lab[:, -1].tolist())
        for comp, s in nb.items():
            if comp in edge or len(s) != 1:
                continue
            o = next(iter(s))
            if not isinstance(o, int):
                continue
            if landpart and kinds[provs[o]] == 'sea':
                continue
            owner[lab == comp] = o


def borders(owner):
    pairs = set()
    for a, b in ((owner[1:, :], owner[:-1, :]), (owner[:, 1:], owner[:, :-1])):
        sel = (a >= 0) & (b >= 0) & (a != b)
        for x, y in zip(a[sel].tolist(), b[sel].tolist()):
            pairs.add((min(x, y), max(x, y)))
    return pairs

# ---------------------------------------------------------------- tracing

DIRS = {(1, 0): 0, (0, 1): 1, (-1, 0): 2, (0, -1): 3}


def trace(region):
    """Rings of a boolean cell region along cell edges, region on the right (screen, y down)."""
    H, W = region.shape
    P = np.zeros((H + 2, W + 2), dtype=bool); P[1:-1, 1:-1] = region
    out = defaultdict(list)
    R = P[1:-1, 1:-1]
    rs, cs = np.nonzero(R & ~P[:-2, 1:-1])           # top edges (c,r)->(c+1,r)
    for r, c in zip(rs.tolist(), cs.tolist()):
        out[(c, r)].append((c + 1, r))
    rs, cs = np.nonzero(R & ~P[1:-1, 2:])            # right (c+1,r)->(c+1,r+1)
    for r, c in zip(rs.tolist(), cs.tolist()):
        out[(c + 1, r)].append((c + 1, r + 1))
    rs, cs = np.nonzero(R & ~P[2:, 1:-1])            # bottom (c+1,r+1)->(c,r+1)
    for r, c in zip(rs.tolist(), cs.tolist()):
        out[(c + 1, r + 1)].append((c, r + 1))
    rs, cs = np.nonzero(R & ~P[1:-1, :-2])           # left (c,r+1)->(c,r)
    for r, c in zip(rs.tolist(), cs.tolist()):
        out[(c, r + 1)].append((c, r))
    rings = []
    while out:
        start = min(out)
        ring = [start]
        cur = start; prev_d = None
        while True:
            cands = out[cur]
            if len(cands) == 1 or prev_d is None:
                nxt = cands[0]
            else:
                # prefer the right turn (hug the region), then straight, then left
                def rank(v):
                    d = (v[0] - cur[0], v[1] - cur[1])
                    turn = (DIRS[d] - prev_d) % 4
                    return {1: 0, 0: 1, 3: 2, 2: 3}[turn]
                nxt = min(cands, key=rank)
            cands.remove(nxt)
            if not cands:
                del out[cur]
            prev_d = DIRS[(nxt[0] - cur[0], nxt[1] - cur[1])]
            cur = nxt
            if cur == start and (start not in out or True):
                if cur not in out:
                    break
                # the start vertex is a pinch: continue only if the ring is not closed properly
                break
            ring.append(cur)
        rings.append(ring)
    return rings


def junctions(labels):
    """Vertices where 3+ labels meet or labels meet diagonally (outside the frame is a label)."""
    H, W = labels.shape
    P = np.full((H + 2, W + 2), -9, dtype=np.int32); P[1:-1, 1:-1] = labels
    tl, tr, bl, br = P[:-1, :-1], P[:-1, 1:], P[1:, :-1], P[1:, 1:]  # around vertex (x=c, y=r)
    distinct = ((tl != tr).astype(int) + (tl != bl) + (tl != br))
    n = np.ones_like(tl)
    n += (tr != tl)
    n += (bl != tl) & (bl != tr)
    n += (br != tl) & (br != tr) & (br != bl)
    checker = (tl == br) & (tr == bl) & (tl != tr)
    J = (n >= 3) | checker
    J[0, 0] = J[0, -1] = J[-1, 0] = J[-1, -1] = True
    rs, cs = np.nonzero(J)
    return set(zip(cs.tolist(), rs.tolist()))


def dp(pts, tol):
    if len(pts) <= 2:
        return list(pts)
    a = np.array(pts, dtype=float)
    keep = np.zeros(len(a), dtype=bool); keep[0] = keep[-1] = True
    stack = [(0, len(a) - 1)]
    while stack:
        i, j = stack.pop()
        if j <= i + 1:
            continue
        p, q = a[i], a[j]
        seg = a[i + 1:j]
        d = q - p
        L = math.hypot(*d)
        if L == 0:
            dist = np.hypot(*(seg - p).T)
        else:
            dist = np.abs(d[0] * (seg[:, 1] - p[1]) - d[1] * (seg[:, 0] - p[0])) / L
        k = int(np.argmax(dist))
        if dist[k] > tol:
            m = i + 1 + k
            keep[m] = True
            stack.append((i, m)); stack.append((m, j))
    return [pts[i] for i in range(len(pts)) if keep[i]]


class Simplifier:
    def __init__(self, kept, tol):
        self.kept = kept; self.tol = tol; self.cache = {}; self.exact = set()

    def piece(self, seq):
        key = tuple(seq); rkey = key[::-1]
        canon, rev = (key, False) if key <= rkey else (rkey, True)
        if canon not in self.cache or canon in self.exact and self.cache[canon][1] != 0:
            tol = 0.01 if canon in self.exact else self.tol
            self.cache[canon] = (dp(list(canon), tol), 0 if canon in self.exact else 1)
        s = self.cache[canon][0]
        return (s[::-1] if rev else s), canon

    def ring(self, ring):
        """Simplified ring and the canonical keys of its pieces."""
        ks = [i for i, v in enumerate(ring) if v in self.kept]
        rot = ring[ks[0]:] + ring[:ks[0]]
        ks = [i for i, v in enumerate(rot) if v in self.kept] + [len(rot)]
        rot = rot + [rot[0]]
        out, keys = [], []
        for a, b in zip(ks, ks[1:]):
            s, key = self.piece(rot[a:b + 1])
            out.extend(s[:-1]); keys.append(key)
        return out, keys


def add_loop_breaks(rings, kept):
    """Every ring gets at least three kept vertices (chosen from the ring's vertex set only, so the
    other side of the same chain chooses the same)."""
    for ring in rings:
        k = [v for v in ring if v in kept]
        while len(set(k)) < 3:
            base = k or [min(ring)]
            far = max(ring, key=lambda v: (min((v[0] - b[0]) ** 2 + (v[1] - b[1]) ** 2 for b in base), v))
            if not k:
                kept.add(base[0]); k = [base[0]]
            if far in kept:
                break
            kept.add(far); k.append(far)


def ring_ok(r):
    """A ring is fine if it does not cross itself: touching itself at a point is allowed."""
    a = np.array(r, dtype=float)
    shoelace = 0.5 * abs(np.dot(a[:, 0], np.roll(a[:, 1], -1)) - np.dot(a[:, 1], np.roll(a[:, 0], -1)))
    return shoelace > 0 and abs(Polygon(r).buffer(0).area - shoelace) < 1e-6 * max(1.0, shoelace) + 0.01


def scaled(ring, c):
    return [[int(x * c), int(y * c)] for x, y in ring]

# ---------------------------------------------------------------- points

def pick_points(region, n_points, cell, seeds_rc=None):
    """Label, unit and centre positions: inside the region, well away from its edge and each other."""
    from scipy import ndimage
    lab, n = ndimage.label(region)
    if n > 1:
        sizes = ndimage.sum(region, lab, range(1, n + 1))
        region = lab == (1 + int(np.argmax(sizes)))
    edt = ndimage.distance_transform_edt(np.pad(region, 1))[1:-1, 1:-1]
    rs, cs = np.nonzero(region)
    e = edt[rs, cs]
    pts = []
    cap = max(2.0, min(e.max(), 7.0))
    for k in range(n_points):
        score = np.minimum(e, cap)
        if pts:
            dmin = np.min([np.hypot(rs - r, cs - c) for r, c in pts], axis=0)
            want = 9.0 + 2 * cap
            score = np.minimum(e, cap) * 1.0 + 0.6 * np.minimum(dmin, want) - 0.02 * dmin
            score = np.where(e >= min(2.0, e.max()), score, -1e9)
        i = int(np.argmax(score))
        pts.append((rs[i], cs[i]))
    return [[int((c + 0.5) * cell), int((r + 0.5) * cell)] for r, c in pts]


# ---------------------------------------------------------------- main

def build(variant, atlas, preview):
    cfg = json.load(open(os.path.join(ROOT, 'scripts', 'maps', f'seeds-{variant}.json')))
    provs, kinds, centres, adj, coasts, fleet_coast = read_map(
        os.path.join(ROOT, 'crates', 'diplomacy', 'variants', f'{variant}.map'))
    grid = Grid(cfg)
    print(f'{variant}: grid {grid.W}x{grid.H} cells, {grid.width}x{grid.height} px', file=sys.stderr)
    mask = rasterize(grid, topo_polygons(os.path.join(atlas, 'land-50m.json')))
    blocked = np.zeros_like(mask)
    draw_edits(grid, mask, blocked, cfg.get('edits', []))
    # drop specks: land pieces and lakes below a few cells
    minsz = cfg.get('min_island_cells', 12)
    for part in (True, False):
        lab, n = components(mask if part else ~mask)
        if n:
            sizes = np.bincount(lab.ravel())
            small = sizes < minsz; small[0] = False
            mask[small[lab]] = not part
    owner, ocean, A = grow(grid, cfg, provs, kinds, adj, mask, blocked)
    fill_enclosed(owner, mask, kinds, provs)
    got = borders(owner)
    want = set()
    idx = {p: i for i, p in enumerate(provs)}
    for p in provs:
        for q in adj[p]:
            want.add((min(idx[p], idx[q]), max(idx[p], idx[q])))
    missing = sorted(want - got); extra = sorted(got - want)
    for a, b in missing:
        print(f'  MISSING border {provs[a]}-{provs[b]}', file=sys.stderr)
    for a, b in extra:
        print(f'  EXTRA border {provs[a]}-{provs[b]}', file=sys.stderr)
    for i, p in enumerate(provs):
        if not (owner == i).any():
            print(f'  EMPTY province {p}', file=sys.stderr)
    # labels for junctions: provinces, unowned land (-1), unowned sea (-2)
    labels = np.where(owner >= 0, owner, np.where(mask, -1, -2)).astype(np.int32)
    kept = junctions(labels)
    prov_rings = {p: trace(owner == i) for i, p in enumerate(provs)}
    land_rings = trace(mask)
    allr = [r for rs in prov_rings.values() for r in rs] + land_rings
    add_loop_breaks(allr, kept)
    simp = Simplifier(kept, cfg.get('tolerance', 0.75))
    c = grid.cell
    for it in range(6):
        out_rings, piece_keys = {}, {}
        for p in provs:
            rr, keys = [], []
            for ring in prov_rings[p]:
                s, k = simp.ring(ring)
                rr.append(s); keys.extend(k)
            out_rings[p] = rr; piece_keys[p] = keys
        bad = set()
        polys = {}
        for p in provs:
            ps = []
            for r in out_rings[p]:
                pg = Polygon(r)
                if len(set(r)) < 3 or not ring_ok(r):
                    bad.add(p)
                ps.append(pg)
            polys[p] = ps
        # neighbours must not overlap (a simplified chain may cross another)
        for a, b in want | got:
            pa, pb = provs[a], provs[b]
            try:
                ua = unary_union([g.buffer(0) for g in polys[pa]]); ub = unary_union([g.buffer(0) for g in polys[pb]])
                if ua.intersection(ub).area > 0.05:
                    bad.add(pa); bad.add(pb)
            except Exception:
                bad.add(pa); bad.add(pb)
        # two different chains simplified onto the same segment would make a false border
        seg_pieces = defaultdict(set)
        for key, (pts, _) in simp.cache.items():
            for a, b in zip(pts, pts[1:]):
                seg_pieces[(min(a, b), max(a, b))].add(key)
        clash = [ks for ks in seg_pieces.values() if len(ks) > 1]
        for ks in clash:
            simp.exact.update(ks)
        if clash:
            print(f'  pass {it}: {len(clash)} chain pairs collapsed onto one segment, kept exact', file=sys.stderr)
        if not bad and not clash:
            break
        print(f'  pass {it}: re-simplifying exactly {sorted(bad)}', file=sys.stderr)
        for p in bad:
            simp.exact.update(piece_keys[p])
    land_out = []
    for ring in land_rings:
        s, _ = simp.ring(ring)
        land_out.append(scaled(s, c))
    # points
    result = {'variant': variant, 'width': grid.width, 'height': grid.height,
              'land': land_out, 'provinces': {}}
    coast_pts = cfg.get('coasts', {})
    for i, p in enumerate(provs):
        region = owner == i
        n_pts = 3 if centres[p] else 2
        pts = pick_points(region, n_pts, c)
        rings = [scaled(r, c) for r in out_rings[p]]
        shp = unary_union([Polygon(r).buffer(0) for r in rings])
        rs, cs = np.nonzero(region)
        def inside(pt):
            if shp.contains(Point(pt)) and shp.boundary.distance(Point(pt)) >= 1.5:
                return pt
            # nearest cell centre that is inside
            d = (cs * c + c / 2 - pt[0]) ** 2 + (rs * c + c / 2 - pt[1]) ** 2
            for j in np.argsort(d)[:400]:
                q = [int(cs[j] * c + c / 2), int(rs[j] * c + c / 2)]
                if shp.contains(Point(q)) and shp.boundary.distance(Point(q)) >= 1.5:
                    return q
            return pt
        pts = [inside(q) for q in pts]
        entry = {'rings': rings, 'label': pts[0], 'unit': pts[1]}
        if centres[p]:
            entry['centre'] = pts[2]
        if p in coasts:
            cd = {}
            for co in coasts[p]:
                lon, lat = coast_pts[f'{p}/{co}']
                x, y = grid.px(lon, lat)
                # nearest province cell touching one of this coast's seas
                seas = [idx[q] for q in fleet_coast[(p, co)] if kinds[q] == 'sea']
                near = np.zeros_like(region)
                for s_ in seas:
                    m = owner == s_
                    near[1:, :] |= m[:-1, :]; near[:-1, :] |= m[1:, :]
                    near[:, 1:] |= m[:, :-1]; near[:, :-1] |= m[:, 1:]
                from scipy import ndimage
                band = region & ndimage.binary_dilation(near & region, iterations=4)
                br, bc = np.nonzero(band)
                d = (bc * c + c / 2 - x) ** 2 + (br * c + c / 2 - y) ** 2
                j = int(np.argmin(d))
                cd[co] = inside([int(bc[j] * c + c / 2), int(br[j] * c + c / 2)])
            entry['coasts'] = cd
        result['provinces'][p] = entry
    out = os.path.join(ROOT, 'crates', 'cartography', 'geometry', f'{variant}.json')
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'w') as f:
        f.write(dumps(result))
    print(f'{variant}: wrote {out} ({os.path.getsize(out)} bytes); {len(missing)} missing, {len(extra)} extra borders', file=sys.stderr)
    if preview:
        draw_preview(result, provs, kinds, os.path.join(preview, f'{variant}.png'), owner, grid)
    return len(missing) + len(extra)


def dumps(r):
    j = lambda v: json.dumps(v, separators=(',', ':'))
    lines = ['{', f'"variant":{j(r["variant"])},"width":{r["width"]},"height":{r["height"]},', '"land":[']
    lines.append(',\n'.join(j(x) for x in r['land']))
    lines.append('],\n"provinces":{')
    items = []
    for p, e in r['provinces'].items():
        head = {k: v for k, v in e.items() if k != 'rings'}
        s = f'{j(p)}:{{' + ','.join(f'{j(k)}:{j(v)}' for k, v in head.items()) + ',"rings":[\n'
        s += ',\n'.join(j(x) for x in e['rings']) + ']}'
        items.append(s)
    lines.append(',\n'.join(items))
    lines.append('}}\n')
    return '\n'.join(lines)


def draw_preview(r, provs, kinds, path, owner, grid, scale=2):
    import random
    W, H = r['width'] * scale, r['height'] * scale
    img = Image.new('RGB', (W, H), (40, 70, 120))
    dr = ImageDraw.Draw(img)
    for ring in r['land']:
        dr.polygon([(x * scale, y * scale) for x, y in ring], fill=(150, 150, 130))
    rnd = random.Random(3)
    for p, e in r['provinces'].items():
        if kinds[p] == 'sea':
            col = (rnd.randint(60, 110), rnd.randint(110, 160), rnd.randint(180, 230))
        else:
            col = (rnd.randint(150, 240), rnd.randint(140, 230), rnd.randint(90, 180))
        for ring in e['rings']:
            dr.polygon([(x * scale, y * scale) for x, y in ring], fill=col, outline=(0, 0, 0))
    for p, e in r['provinces'].items():
        x, y = e['label']
        dr.text((x * scale - 10, y * scale - 5), p, fill=(0, 0, 0))
        x, y = e['unit']
        dr.ellipse((x * scale - 4, y * scale - 4, x * scale + 4, y * scale + 4), outline=(200, 0, 0))
        if 'centre' in e:
            x, y = e['centre']
            dr.rectangle((x * scale - 3, y * scale - 3, x * scale + 3, y * scale + 3), fill=(0, 0, 0))
        for co, (x, y) in e.get('coasts', {}).items():
            dr.text((x * scale - 6, y * scale - 5), co, fill=(160, 0, 160))
    img.save(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--atlas', default='/tmp/package', help='directory of the unpacked world-atlas package')
    ap.add_argument('--preview', default=None, help='directory for preview PNGs (keep out of the repository)')
    ap.add_argument('variants', nargs='+')
    a = ap.parse_args()
    bad = 0
    for v in a.variants:
        bad += build(v, a.atlas, a.preview)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
