// The viewer in a real browser: headless Chromium (Debian's `chromium`, driven by puppeteer-core)
// opens a folder written by `leapnav view` from file:// and the test checks, from the page: no
// console errors and no request leaving the folder; the loaded root nodes are the .glb's (read
// here from the file); a screenshot whose pixels at polygon centres have the polygon's region
// colour (recomputed here from the region id with the pictures' formula); click-to-inspect; and
// the path tool between two clicks. Environment: LEAPNAV_VIEW_DIR (the folder, required),
// CHROMIUM (default /usr/bin/chromium), LEAPNAV_SCREENSHOT (where to keep the screenshot).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';
import { PNG } from 'pngjs';
import validator from 'gltf-validator';
import { jumpArc } from '../src/path.js';

const dir = process.env.LEAPNAV_VIEW_DIR;
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';

/// The JSON chunk of a binary glTF.
function glbJson(bytes) {
  assert.equal(bytes.toString('ascii', 0, 4), 'glTF');
  const length = bytes.readUInt32LE(12);
  return JSON.parse(bytes.toString('utf8', 20, 20 + length));
}

/// region_color of io/src/render.cpp: HSL(region * 137.50776405 mod 360, 0.62, 0.60 or 0.70).
function regionColor(region) {
  const h = (region * 137.50776405) % 360;
  const s = 0.62;
  const l = region % 2 === 0 ? 0.6 : 0.7;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const hp = h / 60;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const [r, g, b] = hp < 1 ? [c, x, 0] : hp < 2 ? [x, c, 0] : hp < 3 ? [0, c, x] : hp < 4 ? [0, x, c] : hp < 5 ? [x, 0, c] : [c, 0, x];
  const m = l - c / 2;
  return [r, g, b].map((v) => Math.round((v + m) * 255));
}

test('the viewer folder loads in headless Chromium and shows the navmesh', { skip: !dir && 'LEAPNAV_VIEW_DIR not set' }, async () => {
  const folder = resolve(dir);
  const glb = readFileSync(join(folder, 'scene.glb'));
  const gltf = glbJson(glb);
  const report = await validator.validateBytes(new Uint8Array(glb));
  assert.equal(report.issues.numErrors, 0, JSON.stringify(report.issues.messages.slice(0, 5)));
  assert.equal(report.issues.numWarnings, 0, JSON.stringify(report.issues.messages.slice(0, 5)));
  const sceneJs = readFileSync(join(folder, 'scene.js'), 'utf8');
  const data = JSON.parse(sceneJs.slice(sceneJs.indexOf('{'), sceneJs.lastIndexOf('}') + 1));
  const expectedNames = gltf.scenes[0].nodes.map((n) => gltf.nodes[n].name);

  const profile = mkdtempSync(join(tmpdir(), 'leapnav-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--enable-unsafe-swiftshader', `--user-data-dir=${profile}`,
    ],
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    const problems = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push('console: ' + m.text());
    });
    page.on('pageerror', (e) => problems.push('page error: ' + e.message));
    page.on('requestfailed', (r) => problems.push('request failed: ' + r.url()));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:') && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) problems.push('network request: ' + r.url());
    });
    await page.goto(pathToFileURL(join(folder, 'index.html')).href, { waitUntil: 'load' });
    await page.waitForFunction(() => window.leapnavViewer && (window.leapnavViewer.ready || window.leapnavViewer.errors.length > 0), { timeout: 60000 });
    const state = await page.evaluate(() => ({ ready: window.leapnavViewer.ready, names: window.leapnavViewer.nodeNames, count: window.leapnavViewer.nodeCount, errors: window.leapnavViewer.errors }));
    assert.deepEqual(state.errors, []);
    assert.equal(state.ready, true);
    assert.equal(state.count, expectedNames.length);
    assert.deepEqual(state.names, expectedNames);
    assert.ok(expectedNames.includes('navmesh'));

    // the screenshot as the page shows it, kept for the documentation
    const shot = await page.screenshot({ type: 'png' });
    if (process.env.LEAPNAV_SCREENSHOT) writeFileSync(process.env.LEAPNAV_SCREENSHOT, shot);

    // the navmesh's colours at polygon centres, with the overlays (links, path) hidden
    await page.evaluate(() => {
      for (const name of ['links', 'path']) window.leapnavViewer.setVisible(name, false);
    });
    const png = PNG.sync.read(await page.screenshot({ type: 'png' }));
    const lift = gltf.nodes.find((n) => n.name === 'navmesh') ? 0.05 : 0;
    let checked = 0;
    let matched = 0;
    const visible = [];
    const misses = [];
    for (let p = 0; p < data.nav.polygons.length; ++p) {
      const poly = data.nav.polygons[p];
      const c = [0, 1, 2].map((k) => poly.vertices.reduce((s, v) => s + data.nav.vertices[v][k], 0) / poly.vertices.length);
      const [x, y] = await page.evaluate((a, b, cc) => window.leapnavViewer.project(a, b, cc), c[0], c[1] + lift, c[2]);
      const px = Math.round(x);
      const py = Math.round(y);
      if (px < 330 || py < 4 || px >= png.width - 4 || py >= png.height - 4) continue; // under the panel or off screen
      // only centres where this polygon is what the eye sees, away from its edges
      const around = await page.evaluate(
        (qx, qy) => [[0, 0], [-3, 0], [3, 0], [0, -3], [0, 3]].map(([dx, dy]) => window.leapnavViewer.pick(qx + dx, qy + dy)),
        px,
        py,
      );
      if (!around.every((h) => h && h.kind === 'polygon' && h.id === p)) continue;
      ++checked;
      // note: a polygon edge (a 1-pixel line) may cross one of the five pixels: three must match
      const want = regionColor(poly.region);
      const seen = [[0, 0], [-3, 0], [3, 0], [0, -3], [0, 3]].map(([dx, dy]) => {
        const at = ((py + dy) * png.width + px + dx) * 4;
        return [png.data[at], png.data[at + 1], png.data[at + 2]];
      });
      const good = seen.filter((rgb) => rgb.every((v, k) => Math.abs(v - want[k]) <= 6)).length;
      if (good >= 3) {
        ++matched;
        visible.push({ p, x: px, y: py });
      }
      else misses.push({ p, seen: seen[0], want });
    }
    assert.ok(checked >= 10, `only ${checked} polygon centres were visible`);
    assert.ok(matched >= 0.9 * checked, `${matched} of ${checked} polygon centres had their region colour: ${JSON.stringify(misses.slice(0, 5))}`);
    console.log(`# colours: ${matched} of ${checked} visible polygon centres match their region colour`);

    // click-to-inspect: a click on a visible polygon's centre names it and its region
    await page.mouse.click(visible[0].x, visible[0].y);
    const info = await page.$eval('#info', (e) => e.textContent);
    assert.match(info, new RegExp(`^polygon ${visible[0].p}region ${data.nav.polygons[visible[0].p].region},`));
    // ... and a click on the apex of a drawn jump arc names a link with that apex
    const linkNode = gltf.nodes.find((n) => n.name === 'links');
    if (linkNode) {
      await page.evaluate(() => window.leapnavViewer.setVisible('links', true));
      let named = 0;
      for (const id of linkNode.extras.link_ids.slice(0, 40)) {
        const l = data.nav.links[id];
        const land = [0, 1, 2].map((k) => (l.land[0][k] + l.land[1][k]) / 2);
        const apex = jumpArc(l.start, land, l.h, 16)[8];
        const [ax, ay] = await page.evaluate((a, b, cc) => window.leapnavViewer.project(a, b, cc), ...apex);
        const hit = await page.evaluate((qx, qy) => window.leapnavViewer.pick(qx, qy), ax, ay);
        if (!hit || hit.kind !== 'link') continue;
        await page.mouse.click(ax, ay);
        const text = await page.$eval('#info', (e) => e.textContent);
        assert.match(text, new RegExp(`^jump link ${hit.id}h `));
        ++named;
      }
      assert.ok(named >= 5, `only ${named} of 40 link apexes could be clicked`);
      await page.evaluate(() => window.leapnavViewer.setVisible('links', false));
    }

    // the path tool: two clicks on polygons far apart give a path
    if (process.env.LEAPNAV_PATH_FROM && process.env.LEAPNAV_PATH_TO) {
      const from = process.env.LEAPNAV_PATH_FROM.split(',').map(Number);
      const to = process.env.LEAPNAV_PATH_TO.split(',').map(Number);
      await page.click('#path-tool');
      for (const q of [from, to]) {
        const [qx, qy] = await page.evaluate((a, b, cc) => window.leapnavViewer.project(a, b, cc), q[0], q[1] + lift, q[2]);
        await page.mouse.click(qx, qy);
      }
      const path = await page.evaluate(() => window.leapnavViewer.lastPath);
      assert.equal(path.status, 'found');
      assert.ok(path.polygons.length >= 2);
      if (process.env.LEAPNAV_PATH_JUMPS) assert.ok(path.jumps >= Number(process.env.LEAPNAV_PATH_JUMPS), `${path.jumps} jumps`);
      const info = await page.$eval('#info', (e) => e.textContent);
      assert.match(info, /path/);
    }
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
