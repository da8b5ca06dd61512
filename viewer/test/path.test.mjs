// The viewer's path tool on closed-form scenes: an L-shaped corridor of three unit squares (the
// taut path bends exactly at the inner corner) and two islands joined only by a jump link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findPath, funnel, jumpArc } from '../src/path.js';

// squares A = [0,1]x[0,1], B = [1,2]x[0,1], C = [1,2]x[1,2] in (x, z), counter-clockwise
const V = [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1], [2, 0, 0], [2, 0, 1], [2, 0, 2], [1, 0, 2]];
const corridor = {
  vertices: V,
  polygons: [
    { vertices: [0, 1, 2, 3], neighbors: [-1, 1, -1, -1], region: 1 },
    { vertices: [1, 4, 5, 2], neighbors: [-1, -1, 2, 0], region: 1 },
    { vertices: [2, 5, 6, 7], neighbors: [1, -1, -1, -1], region: 1 },
  ],
  links: [],
};

test('the path through an L-shaped corridor bends exactly at its inner corner', () => {
  const r = findPath(corridor, { id: 0, point: [0.5, 0, 0.5] }, { id: 2, point: [1.2, 0, 1.8] });
  assert.equal(r.status, 'found');
  assert.deepEqual(r.polygons, [0, 1, 2]);
  assert.equal(r.segments.length, 1);
  assert.deepEqual(r.segments[0].points, [[0.5, 0, 0.5], [1, 0, 1], [1.2, 0, 1.8]]);
  assert.ok(Math.abs(r.length - (Math.hypot(0.5, 0.5) + Math.hypot(0.2, 0.8))) < 1e-12);
  // a goal in sight of the start gives the straight line
  const straight = findPath(corridor, { id: 0, point: [0.2, 0, 0.5] }, { id: 1, point: [1.8, 0, 0.5] });
  assert.deepEqual(straight.segments[0].points, [[0.2, 0, 0.5], [1.8, 0, 0.5]]);
});

test('two islands are joined only by their jump link, drawn as an arc of height h', () => {
  const nav = {
    vertices: [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1], [4, 0, 0], [5, 0, 0], [5, 0, 1], [4, 0, 1]],
    polygons: [
      { vertices: [0, 1, 2, 3], neighbors: [-1, -1, -1, -1], region: 1 },
      { vertices: [4, 5, 6, 7], neighbors: [-1, -1, -1, -1], region: 2 },
    ],
    links: [{ start: [1, 0, 0.5], land: [[4, 0, 0.25], [4, 0, 0.75]], h: 1, d: 3, max_fall: 1, start_polygon: 0, land_polygon: 1 }],
  };
  const r = findPath(nav, { id: 0, point: [0.5, 0, 0.5] }, { id: 1, point: [4.5, 0, 0.5] });
  assert.equal(r.status, 'found');
  assert.equal(r.jumps, 1);
  assert.deepEqual(r.segments.map((s) => s.kind), ['walk', 'jump', 'walk']);
  const arc = r.segments[1].points;
  assert.deepEqual(arc[0], [1, 0, 0.5]);
  assert.deepEqual(arc[arc.length - 1], [4, 0, 0.5]);
  assert.ok(Math.abs(arc[8][1] - 1) < 1e-12); // level ends: the apex is h above the take-off
  assert.equal(findPath({ ...nav, links: [] }, { id: 0, point: [0.5, 0, 0.5] }, { id: 1, point: [4.5, 0, 0.5] }).status, 'no_path');
});

test('an arc to a lower landing stays under the apex and ends on the landing', () => {
  const arc = jumpArc([0, 2, 0], [3, 0, 0], 1, 16);
  assert.deepEqual(arc[16], [3, 0, 0]);
  assert.ok(arc.every((p) => p[1] <= 3 + 1e-12));
  assert.ok(Math.max(...arc.map((p) => p[1])) > 2.9); // the apex, h = 1 above the take-off, is reached
  assert.deepEqual(funnel([0, 0, 0], [1, 0, 0], []), [[0, 0, 0], [1, 0, 0]]);
});
