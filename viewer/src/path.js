// The viewer's path tool, a preview of leapnav's planner on the exported data: A* over polygons
// (first visit closes a polygon, as Detour) where a walk step crosses to a neighbour at the shared
// edge's midpoint and a jump step takes a jump link from its start to the middle of its land
// segment at the cost of the chord plus jumpCost; then each walk part is pulled taut through its
// portals with the simple stupid funnel algorithm in xz, and each jump drawn as its parabola
// y(t) = 4h/d'^2 (d' t - t^2) with d' fitted through take-off and landing (thesis §7.2).

function xzDistance(a, b) {
  return Math.hypot(a[0] - b[0], a[2] - b[2]);
}
function mid(a, b) {
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
}
// > 0 when c lies counter-clockwise of a -> b in (x, z)
function cross(a, b, c) {
  return (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]);
}
function same(a, b) {
  return Math.abs(a[0] - b[0]) < 1e-6 && Math.abs(a[2] - b[2]) < 1e-6;
}

class Heap {
  constructor() {
    this.items = [];
  }
  push(item) {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p].f <= a[i].f) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop() {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l].f < a[m].f) m = l;
        if (r < a.length && a[r].f < a[m].f) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
  get size() {
    return this.items.length;
  }
}

/// Points of the funnel path from `start` to `goal` through portals [left, right] (in xz, left
/// counter-clockwise of the walking direction).
export function funnel(start, goal, portals) {
  const all = [[start, start], ...portals, [goal, goal]];
  const out = [start];
  let apex = start;
  let left = all[0][0];
  let right = all[0][1];
  let apexIndex = 0;
  let leftIndex = 0;
  let rightIndex = 0;
  for (let i = 1; i < all.length; ++i) {
    const [l, r] = all[i];
    // the right side tightens when r is counter-clockwise of apex -> right
    if (cross(apex, right, r) >= 0) {
      if (same(apex, right) || cross(apex, left, r) < 0) {
        right = r;
        rightIndex = i;
      } else {
        out.push(left);
        apex = left;
        apexIndex = leftIndex;
        left = right = apex;
        leftIndex = rightIndex = apexIndex;
        i = apexIndex;
        continue;
      }
    }
    if (cross(apex, left, l) <= 0) {
      if (same(apex, left) || cross(apex, right, l) > 0) {
        left = l;
        leftIndex = i;
      } else {
        out.push(right);
        apex = right;
        apexIndex = rightIndex;
        left = right = apex;
        leftIndex = rightIndex = apexIndex;
        i = apexIndex;
        continue;
      }
    }
  }
  if (!same(out[out.length - 1], goal) || out.length === 1) out.push(goal);
  return out;
}

/// Points along the jump arc from `a` to `b` with apex height h above `a`.
export function jumpArc(a, b, h, segments = 16) {
  const length = xzDistance(a, b);
  const dy = b[1] - a[1];
  const root = 1 - dy / h;
  const d = root >= 0 && length > 0 ? (2 * length) / (1 + Math.sqrt(root)) : -1;
  const out = [];
  for (let i = 0; i <= segments; ++i) {
    const f = i / segments;
    const t = f * length;
    const rise = d > 0 ? ((4 * h) / (d * d)) * (d * t - t * t) : f * dy;
    out.push([a[0] + f * (b[0] - a[0]), a[1] + rise, a[2] + f * (b[2] - a[2])]);
  }
  out[segments] = b;
  return out;
}

/// A path from start = {id: polygon, point} to goal (points as {x, y, z} or [x, y, z]).
/// Returns {status: 'found' | 'no_path', polygons, segments: [{kind, points}], jumps, length}.
export function findPath(nav, start, goal, options = {}) {
  const jumpCost = options.jumpCost ?? 4;
  const asArray = (p) => (Array.isArray(p) ? p : [p.x, p.y, p.z]);
  const s = asArray(start.point);
  const g = asArray(goal.point);
  const polys = nav.polygons;
  const V = nav.vertices;
  const links = nav.links || [];
  const linksFrom = new Map();
  links.forEach((l, i) => {
    if (!linksFrom.has(l.start_polygon)) linksFrom.set(l.start_polygon, []);
    linksFrom.get(l.start_polygon).push(i);
  });
  const best = new Map();
  const came = new Map();
  const heap = new Heap();
  best.set(start.id, 0);
  heap.push({ poly: start.id, point: s, g: 0, f: xzDistance(s, g) });
  const closed = new Set();
  let found = false;
  while (heap.size > 0) {
    const cur = heap.pop();
    if (closed.has(cur.poly)) continue;
    closed.add(cur.poly);
    if (cur.poly === goal.id) {
      found = true;
      break;
    }
    const poly = polys[cur.poly];
    const steps = [];
    poly.neighbors.forEach((n, k) => {
      if (n < 0) return;
      const a = V[poly.vertices[k]];
      const b = V[poly.vertices[(k + 1) % poly.vertices.length]];
      steps.push({ to: n, point: mid(a, b), cost: 0, via: { kind: 'walk', edge: k } });
    });
    for (const id of linksFrom.get(cur.poly) || []) {
      const l = links[id];
      const land = mid(l.land[0], l.land[1]);
      steps.push({ to: l.land_polygon, point: land, cost: xzDistance(cur.point, l.start) - xzDistance(cur.point, land) + xzDistance(l.start, land) + jumpCost, via: { kind: 'jump', link: id } });
    }
    for (const step of steps) {
      if (closed.has(step.to)) continue;
      const cost = cur.g + xzDistance(cur.point, step.point) + step.cost;
      if (best.has(step.to) && best.get(step.to) <= cost) continue;
      best.set(step.to, cost);
      came.set(step.to, { from: cur.poly, via: step.via });
      heap.push({ poly: step.to, point: step.point, g: cost, f: cost + xzDistance(step.point, g) });
    }
  }
  if (!found) return { status: 'no_path', polygons: [], segments: [], jumps: 0, length: 0 };

  // the corridor, start polygon first, with how each polygon was entered
  const corridor = [{ poly: goal.id, via: null }];
  for (let p = goal.id; p !== start.id; ) {
    const c = came.get(p);
    corridor[corridor.length - 1].via = c.via;
    corridor.push({ poly: c.from, via: null });
    p = c.from;
  }
  corridor.reverse();
  // corridor[i].via (i >= 1) is how corridor[i].poly was entered from corridor[i - 1].poly
  const segments = [];
  let from = s;
  let portals = [];
  let jumps = 0;
  for (let i = 1; i < corridor.length; ++i) {
    const via = corridor[i].via;
    if (via.kind === 'walk') {
      const poly = polys[corridor[i - 1].poly];
      const a = V[poly.vertices[via.edge]];
      const b = V[poly.vertices[(via.edge + 1) % poly.vertices.length]];
      // note: polygons are counter-clockwise in (x, z): leaving across a -> b, b is on the left
      portals.push([b, a]);
    } else {
      const l = links[via.link];
      segments.push({ kind: 'walk', points: funnel(from, l.start, portals) });
      const land = mid(l.land[0], l.land[1]);
      segments.push({ kind: 'jump', points: jumpArc(l.start, land, l.h), link: via.link });
      ++jumps;
      from = land;
      portals = [];
    }
  }
  segments.push({ kind: 'walk', points: funnel(from, g, portals) });
  let length = 0;
  for (const seg of segments) {
    if (seg.kind === 'jump') length += xzDistance(seg.points[0], seg.points[seg.points.length - 1]);
    else for (let k = 1; k < seg.points.length; ++k) length += xzDistance(seg.points[k - 1], seg.points[k]);
  }
  return { status: 'found', polygons: corridor.map((c) => c.poly), segments, jumps, length };
}
