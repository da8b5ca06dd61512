// The leapnav viewer: shows a navmesh exported as binary glTF (`leapnav view`) in 3-D with orbit,
// pan and zoom, per-layer toggles, a legend, click-to-inspect for polygons and jump links, and a
// path tool. The page reads everything from window.LEAPNAV_DATA (scene.js, written beside it):
// the .glb as base64 and the navmesh JSON of `leapnav export` (polygons, neighbours, links), so it
// works from file:// with no network. The path tool runs A* over the polygon graph plus the jump
// links (cost: walked xz distance between portal midpoints, a jump's chord plus JUMP_COST), then
// pulls the walk parts taut through their portals (simple stupid funnel, in xz). It is a preview:
// `leapnav path` is the reference planner.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js';
import { findPath } from './path.js';

const data = window.LEAPNAV_DATA;
const state = { ready: false, errors: [], nodeNames: [], nodeCount: 0 };
window.leapnavViewer = state;

const $ = (id) => document.getElementById(id);

function base64ToArrayBuffer(text) {
  const bytes = atob(text);
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; ++i) out[i] = bytes.charCodeAt(i);
  return out.buffer;
}

const canvas = $('view');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
const scene = new THREE.Scene();
scene.background = new THREE.Color('#eef1f5');
const camera = new THREE.PerspectiveCamera(45, 1, 0.05, 5000);
const controls = new OrbitControls(camera, canvas);
controls.enableDamping = false;
scene.add(new THREE.HemisphereLight('#ffffff', '#667788', 2.2));
const sun = new THREE.DirectionalLight('#ffffff', 1.6);
sun.position.set(0.4, 1, 0.25);
scene.add(sun);

const nodes = {};
const computed = new THREE.Group();
scene.add(computed);

function resize() {
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  renderer.setSize(w, h, false);
  camera.aspect = w / Math.max(1, h);
  // note: the panel covers the left of the page, so the picture's centre moves right of the middle
  camera.setViewOffset(w, h, w > 700 ? -0.12 * w : 0, 0, w, h);
  camera.updateProjectionMatrix();
  render();
}

function render() {
  renderer.render(scene, camera);
}

function frame(box) {
  const size = box.getSize(new THREE.Vector3());
  const center = box.getCenter(new THREE.Vector3());
  const radius = Math.max(size.length() * 0.5, 1);
  const dist = radius / Math.tan(THREE.MathUtils.degToRad(camera.fov * 0.5));
  // looking down at about 55 degrees from the south-east
  camera.position.copy(center).add(new THREE.Vector3(0.35, 1.25, 0.85).normalize().multiplyScalar(dist * 1.05));
  camera.near = dist / 200;
  camera.far = dist * 20;
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.update();
}

/// Segments (pairs of points) as one mesh of thin cylinders: WebGL draws lines one pixel wide,
/// too thin for a path over a busy level.
function tubes(pairs, color, radius) {
  const parts = [];
  const up = new THREE.Vector3(0, 1, 0);
  for (const [a, b] of pairs) {
    const length = a.distanceTo(b);
    if (length <= 1e-6) continue;
    const g = new THREE.CylinderGeometry(radius, radius, length, 8, 1, false);
    const q = new THREE.Quaternion().setFromUnitVectors(up, b.clone().sub(a).normalize());
    g.applyQuaternion(q);
    g.translate((a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2);
    parts.push(g);
  }
  if (parts.length === 0) return null;
  return new THREE.Mesh(mergeGeometries(parts), new THREE.MeshBasicMaterial({ color }));
}

/// The glTF path node (LINES with per-vertex colours) thickened: a tube along each segment, in the
/// colour of its first vertex.
function thickenPath(node, radius) {
  const pos = node.geometry.getAttribute('position');
  const col = node.geometry.getAttribute('color');
  const index = node.geometry.index;
  const byColor = new Map();
  for (let i = 0; i + 1 < index.count; i += 2) {
    const a = new THREE.Vector3().fromBufferAttribute(pos, index.getX(i));
    const b = new THREE.Vector3().fromBufferAttribute(pos, index.getX(i + 1));
    const c = col ? new THREE.Color().fromBufferAttribute(col, index.getX(i)).getHexString() : 'd62728';
    if (!byColor.has(c)) byColor.set(c, []);
    byColor.get(c).push([a, b]);
  }
  for (const [c, pairs] of byColor) {
    const color = new THREE.Color('#' + c);
    // note: the attribute holds linear values, as the material's colour does
    const mesh = tubes(pairs, color, radius);
    if (mesh) node.add(mesh);
  }
}

// ---- polygons and links of the exported data ----
const polygons = data.nav.polygons;
const links = data.nav.links || [];
const vertices = data.nav.vertices;
const triangleToPolygon = [];
polygons.forEach((p, i) => {
  for (let k = 0; k + 2 < p.vertices.length; ++k) triangleToPolygon.push(i);
});

function fmt(v) {
  return Number(v).toFixed(2);
}
function point(v) {
  return `(${fmt(v[0])}, ${fmt(v[1])}, ${fmt(v[2])})`;
}

function describePolygon(p) {
  const poly = polygons[p];
  const out = links.filter((l) => l.start_polygon === p).length;
  const into = links.filter((l) => l.land_polygon === p).length;
  const nbs = poly.neighbors.filter((n) => n >= 0);
  return (
    `<b>polygon ${p}</b><br>region ${poly.region}, area ${poly.area}, flags ${poly.flags}<br>` +
    `${poly.vertices.length} vertices, neighbours [${nbs.join(', ')}]<br>` +
    `jump links: ${out} out, ${into} in`
  );
}

function describeLink(id) {
  const l = links[id];
  return (
    `<b>jump link ${id}</b><br>h ${fmt(l.h)} m, d ${fmt(l.d)} m, max fall ${fmt(l.max_fall)} m<br>` +
    `start ${point(l.start)} in polygon ${l.start_polygon}<br>` +
    `land ${point(l.land[0])} to ${point(l.land[1])} in polygon ${l.land_polygon}`
  );
}

// ---- picking ----
const raycaster = new THREE.Raycaster();
function pick(clientX, clientY) {
  const rect = canvas.getBoundingClientRect();
  const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  const targets = [];
  // note: the level takes part so that what it hides cannot be picked through it
  if (nodes.level && nodes.level.visible) targets.push(nodes.level);
  if (nodes.navmesh && nodes.navmesh.visible) targets.push(nodes.navmesh);
  if (nodes.links && nodes.links.visible) targets.push(nodes.links);
  const hits = raycaster.intersectObjects(targets, false);
  for (const hit of hits) {
    if (hit.object === nodes.level) {
      // the navmesh is lifted a little above the floor it lies on: prefer it within that margin
      const under = hits.find((h) => h.object === nodes.navmesh && h.distance < hit.distance + 0.3);
      if (!under) return { kind: 'level', id: hit.faceIndex, point: hit.point };
      continue;
    }
    if (hit.object === nodes.navmesh && hit.faceIndex != null) {
      return { kind: 'polygon', id: triangleToPolygon[hit.faceIndex], point: hit.point };
    }
    if (hit.object === nodes.links && hit.index != null) {
      const extras = nodes.links.userData;
      const drawn = Math.floor(hit.index / 2 / extras.segments_per_link);
      return { kind: 'link', id: extras.link_ids[drawn], point: hit.point };
    }
  }
  return null;
}

// ---- path tool ----
let pathMode = false;
let pathStart = null;
function clearComputed() {
  for (const c of [...computed.children]) {
    computed.remove(c);
    c.geometry?.dispose();
  }
}
function marker(p, color) {
  const m = new THREE.Mesh(new THREE.SphereGeometry(state.markerRadius, 16, 12), new THREE.MeshBasicMaterial({ color }));
  m.position.copy(p);
  computed.add(m);
}
function showPath(result) {
  const lift = 0.2;
  const pts = [];
  for (const seg of result.segments) {
    for (const p of seg.points) pts.push(new THREE.Vector3(p[0], p[1] + lift, p[2]));
  }
  const pairs = [];
  for (let i = 1; i < pts.length; ++i) pairs.push([pts[i - 1], pts[i]]);
  const mesh = tubes(pairs, '#ff7f0e', state.markerRadius * 0.35);
  if (mesh) computed.add(mesh);
}
function onPathClick(hit) {
  if (!hit || hit.kind !== 'polygon') return;
  if (!pathStart) {
    clearComputed();
    pathStart = hit;
    marker(hit.point, '#2ca02c');
    $('info').innerHTML = 'path tool: start set on polygon ' + hit.id + '; click the goal';
  } else {
    marker(hit.point, '#d62728');
    const result = findPath(data.nav, pathStart, hit, { jumpCost: data.jump_cost ?? 4 });
    state.lastPath = result;
    if (result.status === 'found') {
      showPath(result);
      $('info').innerHTML =
        `<b>path</b> (preview planner): ${result.polygons.length} polygons, ${result.jumps} jumps, ` +
        `length ${fmt(result.length)} m (xz)`;
    } else {
      $('info').innerHTML = '<b>path</b>: no path between these polygons';
    }
    pathStart = null;
  }
  render();
}

let down = null;
canvas.addEventListener('pointerdown', (e) => {
  down = [e.clientX, e.clientY];
});
canvas.addEventListener('pointerup', (e) => {
  if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 4) return;
  const hit = pick(e.clientX, e.clientY);
  if (pathMode) return onPathClick(hit);
  if (!hit) $('info').textContent = 'click a polygon or a jump link';
  else $('info').innerHTML = hit.kind === 'polygon' ? describePolygon(hit.id) : describeLink(hit.id);
});

// ---- user interface ----
function buildToggles() {
  const layers = [
    ['level', 'level'],
    ['navmesh', 'navmesh'],
    ['navmesh_edges', 'polygon edges'],
    ['links', 'jump links'],
    ['path', 'path'],
  ];
  const box = $('toggles');
  for (const [name, label] of layers) {
    if (!nodes[name]) continue;
    const row = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.checked = true;
    input.id = 'toggle-' + name;
    input.addEventListener('change', () => {
      nodes[name].visible = input.checked;
      render();
    });
    row.append(input, ' ' + label);
    box.append(row);
  }
  $('path-tool').addEventListener('click', () => {
    pathMode = !pathMode;
    pathStart = null;
    $('path-tool').classList.toggle('on', pathMode);
    $('info').textContent = pathMode ? 'path tool: click the start on the navmesh' : 'click a polygon or a jump link';
  });
}

function swatch(color, line) {
  return `<span class="swatch${line ? ' line' : ''}" style="background:${color}"></span>`;
}

function buildLegend() {
  const rows = [];
  if (nodes.level) rows.push(swatch('#8c8c8c') + 'level geometry');
  const fill = nodes.navmesh?.userData.fill ?? 'region';
  rows.push(`${swatch('linear-gradient(90deg,#e58a8a,#8ae5a0,#8a9be5)')}navmesh: ${polygons.length} polygons, one colour per ${fill}`);
  rows.push(swatch('#1a1a1a', true) + 'boundary edge ' + swatch('#f4f4f4', true) + 'inner edge');
  if (nodes.links) {
    const extras = nodes.links.userData;
    for (const c of extras.configs) rows.push(swatch(c.color, true) + 'jump ' + c.label);
    rows.push(`<span class="note">${extras.link_ids.length} of ${links.length} links drawn: arc to the middle of the land segment, then the segment</span>`);
  }
  if (nodes.path) rows.push(swatch('#d62728', true) + 'path: walk ' + swatch('#e377c2', true) + 'jump');
  rows.push(swatch('#ff7f0e', true) + 'path tool result');
  $('legend').innerHTML = rows.join('<br>');
}

// ---- load ----
window.addEventListener('resize', resize);
controls.addEventListener('change', render);
$('title').textContent = data.title || 'leapnav';
const loader = new GLTFLoader();
loader.parse(
  base64ToArrayBuffer(data.glb),
  '',
  (gltf) => {
    const root = gltf.scene;
    for (const child of root.children) {
      nodes[child.name] = child;
      state.nodeNames.push(child.name);
    }
    state.nodeCount = root.children.length;
    scene.add(root);
    const box = new THREE.Box3().setFromObject(nodes.navmesh || root);
    raycaster.params.Line.threshold = Math.max(0.05, box.getSize(new THREE.Vector3()).length() / 400);
    state.markerRadius = Math.max(0.1, box.getSize(new THREE.Vector3()).length() / 250);
    if (nodes.path) thickenPath(nodes.path, state.markerRadius * 0.35);
    buildToggles();
    buildLegend();
    frame(box);
    resize();
    state.ready = true;
    document.body.dataset.ready = '1';
  },
  (error) => {
    state.errors.push(String(error));
    console.error('leapnav viewer: could not load the scene:', error);
  },
);

// for tests and scripting: project a world point to canvas pixels, pick at pixels
state.project = (x, y, z) => {
  const v = new THREE.Vector3(x, y, z).project(camera);
  const rect = canvas.getBoundingClientRect();
  return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
};
state.pick = (px, py) => {
  const hit = pick(px, py);
  return hit ? { kind: hit.kind, id: hit.id } : null;
};
state.setVisible = (name, visible) => {
  if (nodes[name]) nodes[name].visible = visible;
  render();
};
state.findPath = (a, b) => findPath(data.nav, a, b, { jumpCost: 4 });
