"""The Python module against closed-form scenes (two slabs with a gap only a jump crosses) and a
real level: builds, paths with and without jumps, batches equal to single queries for any thread
count, raycasts, closest points, random points, save/load round trips and the errors."""
import json
import math
import os
import pathlib
import subprocess

import numpy as np
import pytest

import leapnav

SHARED = pathlib.Path(__file__).resolve().parents[2] / ".." / "shared" / "meshes"
# note: the CLI of the same build tree (the module lies in <build>/python, the CLI in <build>/bin)
CLI = pathlib.Path(os.environ.get(
    "LEAPNAV_CLI", pathlib.Path(leapnav.__file__).resolve().parents[1] / "bin" / "leapnav"))


def slabs(gap=2.0):
    """Two 8 x 8 m slabs 0.5 m thick, `gap` metres apart along x: (vertices, triangles)."""
    return boxes(((0, -0.5, 0), (8, 0, 8)), ((8 + gap, -0.5, 0), (16 + gap, 0, 8)))


def boxes(*corners):
    """Closed boxes without bottoms, one per (lo, hi) corner pair: (vertices, triangles)."""
    vertices, triangles = [], []
    faces = [(2, 6, 7, 3), (0, 1, 5, 4), (0, 4, 6, 2), (1, 3, 7, 5), (4, 5, 7, 6)]
    for lo, hi in corners:
        first = len(vertices)
        for k in range(8):
            vertices.append([hi[i] if k & (1 << i) else lo[i] for i in range(3)])
        for a, b, c, d in faces:
            triangles += [[first + a, first + b, first + c], [first + a, first + c, first + d]]
    return np.array(vertices, np.float32), np.array(triangles, np.int32)


@pytest.fixture(scope="module")
def navmesh():
    v, t = slabs()
    return leapnav.build(v, t, config="default", jumps=["C2"], step=4)


def load_obj(path):
    vertices, triangles = [], []
    for line in open(path):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "v":
            vertices.append([float(x) for x in parts[1:4]])
        elif parts[0] == "f":
            idx = [int(p.split("/")[0]) - 1 for p in parts[1:]]
            triangles += [[idx[0], idx[k], idx[k + 1]] for k in range(1, len(idx) - 1)]
    return np.array(vertices, np.float32), np.array(triangles, np.int64)


def test_a_built_level_has_two_floor_polygons_and_c2_links(navmesh):
    stats = navmesh.stats
    assert stats["polygons"] == 2
    assert stats["jump_links"] > 0
    assert stats["jump_configs"] == [{"h": 3.0, "d": 7.5, "max_fall": 7.5}]
    assert navmesh.vertices.shape == (stats["vertices"], 3)
    assert navmesh.polygons.shape[0] == 2
    links = navmesh.links
    assert links["start"].shape == (stats["jump_links"], 3)
    assert set(links["config"].tolist()) == {0}


def test_the_gap_is_crossed_only_by_a_jump(navmesh):
    walk = navmesh.find_path([2, 0, 4], [6, 0, 6], jumps=False)
    assert walk.status == "found"
    assert walk.length == pytest.approx(math.hypot(4, 2), abs=1e-4)
    assert navmesh.find_path([2, 0, 4], [14, 0, 4], jumps=False).status == "no_path"
    path = navmesh.find_path([2, 0, 4], [14, 0, 4])
    assert path.status == "found"
    assert path.jump_count == 1
    kinds = [s["kind"] for s in path.segments]
    assert kinds == ["walk", "jump", "walk"]
    jump = path.segments[1]
    assert jump["h"] == 3.0 and jump["link"] >= 0
    assert jump["points"][0][0] < 8 < 10 < jump["points"][1][0]
    assert path.points.shape == (len(path.points), 3) and path.points.dtype == np.float32
    xz = path.points[:, [0, 2]].astype(np.float64)
    assert path.length == pytest.approx(np.linalg.norm(np.diff(xz, axis=0), axis=1).sum(), rel=1e-5)


def test_a_high_jump_cost_does_not_forbid_the_only_way(navmesh):
    path = navmesh.find_path([2, 0, 4], [14, 0, 4], jump_cost=1000.0)
    assert path.status == "found" and path.jump_count == 1


def test_batches_equal_single_queries_for_any_thread_count(navmesh):
    starts = navmesh.random_points(64, seed=3)
    ends = navmesh.random_points(64, seed=4)
    one = navmesh.find_paths(starts, ends, threads=1)
    two = navmesh.find_paths(starts, ends, threads=2)
    assert one[0] == two[0]
    assert np.array_equal(one[1], two[1])
    for i in range(0, 64, 8):
        single = navmesh.find_path(starts[i], ends[i])
        assert single.status == one[0][i]
        assert single.length == one[1][i]


def test_a_raycast_stops_at_the_gap_facing_back(navmesh):
    hit = navmesh.raycast([2, 0, 4], [14, 0, 4])
    assert hit["hit"]
    max_x = navmesh.stats["bounds"][0][0]
    assert hit["point"][0] == pytest.approx(navmesh.vertices[:, 0][navmesh.vertices[:, 0] < 9].max())
    assert hit["normal"] == pytest.approx([-1.0, 0.0, 0.0])
    assert hit["t"] == pytest.approx((hit["point"][0] - 2) / 12, rel=1e-5)
    assert max_x < hit["point"][0]
    free = navmesh.raycast([2, 0, 4], [6, 0, 4])
    assert not free["hit"] and free["t"] == 1.0
    assert navmesh.raycast([100, 0, 100], [0, 0, 0]) is None


def test_closest_point_lifts_to_the_floor_and_random_points_are_seeded(navmesh):
    point, poly = navmesh.closest_point([12, 1.5, 4])
    assert point[0] == pytest.approx(12) and point[2] == pytest.approx(4)
    assert abs(point[1]) < 0.2 and poly in (0, 1)
    assert navmesh.closest_point([100, 0, 100]) is None
    a = navmesh.random_points(100, seed=7)
    assert a.shape == (100, 3)
    assert np.array_equal(a, navmesh.random_points(100, seed=7))
    assert not np.array_equal(a, navmesh.random_points(100, seed=8))


def test_save_and_load_keep_the_mesh_and_links(navmesh, tmp_path):
    path = tmp_path / "slabs.lnav"
    navmesh.save(str(path))
    back = leapnav.load(str(path))
    assert back.stats == navmesh.stats
    assert back.find_path([2, 0, 4], [14, 0, 4]).jump_count == 1


def test_errors_raise_with_the_library_message(tmp_path):
    v, t = slabs()
    with pytest.raises(OSError, match="no such file"):
        leapnav.load(str(tmp_path / "missing.lnav"))
    bad = tmp_path / "bad.lnav"
    bad.write_bytes(b"LNAV" + b"\0" * 60)
    with pytest.raises(ValueError, match="bad.lnav"):
        leapnav.load(str(bad))
    with pytest.raises(ValueError, match="radius"):
        leapnav.build(v, t, config={"agent": {"radius": -1}})
    with pytest.raises(ValueError, match="unknown jump configuration"):
        leapnav.build(v, t, jumps=["C9"])
    with pytest.raises(ValueError, match=r"\(N, 3\)"):
        leapnav.build(v[:, :2], t)
    t2 = t.copy()
    t2[0, 0] = 99
    with pytest.raises(ValueError, match="triangle 0 uses vertex 99"):
        leapnav.build(v, t2)
    nav = leapnav.build(v, t)
    with pytest.raises(ValueError, match="not finite"):
        nav.find_path([math.nan, 0, 0], [1, 0, 1])
    with pytest.raises(ValueError, match="area cost 63"):
        nav.find_path([2, 0, 4], [6, 0, 6], area_costs={63: 0.0})
    with pytest.raises(ValueError, match="out of range"):
        nav.find_path([2, 0, 4], [6, 0, 6], area_costs={300: 2.0})


def test_load_and_save_take_path_objects(navmesh, tmp_path):
    path = tmp_path / "slabs.lnav"
    navmesh.save(path)
    assert leapnav.load(path).stats == navmesh.stats
    with pytest.raises(OSError, match="missing.lnav: no such file"):
        leapnav.load(tmp_path / "missing.lnav")
    with pytest.raises(OSError, match="is a directory"):
        leapnav.load(tmp_path)
    with pytest.raises(TypeError):
        leapnav.load(None)
    with pytest.raises(TypeError):
        navmesh.save(None)


def test_arguments_of_the_wrong_type_raise_type_error_naming_the_argument():
    v, t = slabs()
    with pytest.raises(TypeError, match=r"jumps: configuration 1 is \('a', 2, 3\)"):
        leapnav.build(v, t, jumps=["C2", ("a", 2, 3)])
    with pytest.raises(TypeError, match="jumps: configuration 0 is None"):
        leapnav.build(v, t, jumps=[None])
    with pytest.raises(TypeError, match="jumps: expected a list of configurations"):
        leapnav.build(v, t, jumps=5)
    with pytest.raises(TypeError, match="config: Object of type object is not JSON"):
        leapnav.build(v, t, config={"agent": object()})
    with pytest.raises(ValueError, match="config: a number is NaN or infinite"):
        leapnav.build(v, t, config={"agent": {"radius": math.nan}})
    nav = leapnav.build(v, t)
    with pytest.raises(TypeError, match="area_costs: 'a': 1 is not an"):
        nav.find_path([2, 0, 4], [6, 0, 6], area_costs={"a": 1})
    with pytest.raises(TypeError, match="area_costs: 5: 'x' is not an"):
        nav.find_path([2, 0, 4], [6, 0, 6], area_costs={5: "x"})
    with pytest.raises(TypeError):
        nav.random_points(-1)
    with pytest.raises(TypeError):
        nav.unload_tile(-1)


def test_points_and_arrays_of_the_wrong_type_name_the_argument_and_what_it_takes(navmesh):
    # None was "ValueError: start: expected 3 coordinates, got 1" (numpy made NaN of it), a string
    # pybind11's "incompatible function arguments" with the whole signature
    with pytest.raises(TypeError, match=r"^start: expected 3 numbers \(x, y, z\), not None$"):
        navmesh.find_path(None, [6, 0, 6])
    with pytest.raises(TypeError, match=r"^end: expected 3 numbers \(x, y, z\), not str$"):
        navmesh.find_path([2, 0, 4], "abc")
    with pytest.raises(TypeError, match=r"^end: expected 3 numbers \(x, y, z\), not list$"):
        navmesh.find_path([2, 0, 4], ["a", "b", "c"])
    with pytest.raises(TypeError, match=r"^target: expected 3 numbers \(x, y, z\), not None$"):
        navmesh.move_along_surface([2, 0, 4], None)
    with pytest.raises(TypeError, match=r"^point: expected 3 numbers \(x, y, z\), not object$"):
        navmesh.closest_point(object())
    with pytest.raises(TypeError, match=r"^starts: expected an \(N, 3\) array of numbers, not None$"):
        navmesh.find_paths(None, [[6, 0, 6]])
    with pytest.raises(ValueError, match=r"^start: expected 3 coordinates, got 2$"):
        navmesh.find_path([2, 0], [6, 0, 6])
    v, t = slabs()
    with pytest.raises(TypeError, match=r"^vertices: expected an \(N, 3\) array of numbers, not None$"):
        leapnav.build(None, t)
    with pytest.raises(TypeError, match=r"^triangles: expected an \(M, 3\) array of vertex indices, not str$"):
        leapnav.build(v, "t")
    # and the arguments they take still work: lists, tuples, numpy arrays
    assert navmesh.find_path((2, 0, 4), np.array([6, 0, 6])).status == "found"


def test_a_navmesh_with_no_polygons_answers_not_on_the_mesh():
    # an empty build is a result, not an error (as plan::Planner and the C API answer)
    wall = np.array([[0, 0, 0], [0, 5, 0], [5, 0, 0], [5, 5, 0]], dtype=np.float32)
    nav = leapnav.build(wall, np.array([[0, 1, 2], [1, 3, 2]]))
    assert nav.stats["polygons"] == 0
    assert nav.find_path([1, 0, 1], [4, 0, 1]).status == "start_not_on_mesh"
    assert nav.closest_point([1, 0, 1]) is None
    assert nav.random_points(3).shape == (0, 3)


def test_one_jump_name_is_one_configuration():
    v, t = slabs()
    one = leapnav.build(v, t, jumps="C2")
    listed = leapnav.build(v, t, jumps=["C2"])
    assert one.stats == listed.stats
    assert one.find_path([2, 0, 4], [14, 0, 4]).jump_count == 1


def test_bad_numbers_name_the_call_and_the_input(navmesh):
    with pytest.raises(ValueError, match="move_along_surface: target is not finite"):
        navmesh.move_along_surface([2, 0, 4], [math.nan, 0, 4])
    with pytest.raises(ValueError, match="distance_to_wall: radius nan is not finite"):
        navmesh.distance_to_wall([2, 0, 4], math.nan)
    with pytest.raises(ValueError, match="distance_to_wall: radius -1.000000 is negative"):
        navmesh.distance_to_wall([2, 0, 4], -1.0)
    with pytest.raises(ValueError, match="raycast: end is not finite"):
        navmesh.raycast([2, 0, 4], [math.inf, 0, 4])


def test_triangle_areas_reach_the_polygons_and_the_filter():
    v, t = slabs()
    areas = np.full(len(t), 63)
    areas[10:] = 5  # the second slab
    nav = leapnav.build(v, t, jumps=["C2"], areas=areas)
    assert nav.find_path([2, 0, 4], [14, 0, 4]).status == "found"
    assert nav.find_path([2, 0, 4], [14, 0, 4], area_costs={5: math.inf}).status == "no_path"
    assert nav.find_path([2, 0, 4], [14, 0, 4], area_costs={63: math.inf}).status == "found"
    with pytest.raises(ValueError, match="one area id per triangle"):
        leapnav.build(v, t, areas=[1, 2])
    with pytest.raises(ValueError, match="triangle 0 has area 64"):
        leapnav.build(v, t, areas=np.full(len(t), 64))


def test_area_costs_scale_the_search_and_exclude_areas(navmesh):
    # every polygon is ground (area 63): a cost scales the search, infinity excludes the goal
    cheap = navmesh.find_path([2, 0, 4], [6, 0, 6], area_costs={63: 1.0})
    costly = navmesh.find_path([2, 0, 4], [6, 0, 6], area_costs={63: 3.0})
    assert cheap.status == costly.status == "found"
    assert cheap.length == pytest.approx(costly.length)
    assert navmesh.find_path([2, 0, 4], [14, 0, 4], area_costs={63: math.inf}).status == "no_path"
    statuses, _ = navmesh.find_paths(np.array([[2, 0, 4]]), np.array([[14, 0, 4]]),
                                     area_costs={63: math.inf})
    assert statuses == ["no_path"]


@pytest.mark.skipif(not (SHARED / "dungeon.obj").exists(), reason="../shared/meshes/dungeon.obj absent")
def test_the_dungeon_builds_and_batches_agree_with_single_queries():
    v, t = load_obj(SHARED / "dungeon.obj")
    nav = leapnav.build(v, t, config="default")
    assert nav.stats["polygons"] > 100
    starts = nav.random_points(100, seed=1)
    ends = nav.random_points(100, seed=2)
    statuses, lengths = nav.find_paths(starts, ends, threads=2)
    assert statuses.count("found") > 50
    for i in range(0, 100, 10):
        single = nav.find_path(starts[i], ends[i])
        assert (single.status, single.length) == (statuses[i], lengths[i])
        if single.status == "found":
            straight = np.linalg.norm((ends[i] - starts[i])[[0, 2]])
            assert single.length >= straight - 1e-3


@pytest.mark.skipif(not (SHARED / "nav_test.obj").exists(), reason="../shared/meshes/nav_test.obj absent")
def test_the_exact_walking_search_is_never_longer_than_the_portal_search():
    v, t = load_obj(SHARED / "nav_test.obj")
    nav = leapnav.build(v, t, config="default")
    starts = nav.random_points(200, seed=3)
    ends = nav.random_points(200, seed=4)
    exact_status, exact = nav.find_paths(starts, ends, jumps=False, walk_search="exact")
    portal_status, portals = nav.find_paths(starts, ends, jumps=False, walk_search="portals")
    assert exact_status == portal_status
    found = [i for i, s in enumerate(exact_status) if s == "found"]
    assert len(found) > 40
    assert all(exact[i] <= portals[i] + 1e-4 for i in found)
    assert any(exact[i] < portals[i] - 1e-3 for i in found)
    single = nav.find_path(starts[found[0]], ends[found[0]], jumps=False, walk_search="exact")
    assert single.length == exact[found[0]]
    with pytest.raises(ValueError, match="walk_search: 'fast' is neither"):
        nav.find_path(starts[0], ends[0], walk_search="fast")


def test_moves_slide_to_the_gaps_wall_and_reach_points_on_the_slab(navmesh):
    reached = navmesh.move_along_surface([2, 0, 4], [6, 0, 6])
    assert reached["reached"]
    assert reached["point"][0] == pytest.approx(6) and reached["point"][2] == pytest.approx(6)
    hit = navmesh.raycast([2, 0, 4], [14, 0, 4])
    stopped = navmesh.move_along_surface([2, 0, 4], [14, 0, 4])
    assert not stopped["reached"]
    assert stopped["point"][0] == pytest.approx(hit["point"][0], abs=1e-3)
    assert stopped["point"][2] == pytest.approx(4, abs=1e-3)
    assert navmesh.move_along_surface([100, 0, 100], [0, 0, 0]) is None


def test_the_nearest_wall_is_no_farther_than_the_gap_and_none_within_a_small_radius(navmesh):
    hit = navmesh.raycast([4, 0, 4], [14, 0, 4])
    wall = navmesh.distance_to_wall([4, 0, 4], 10.0)
    assert wall["found"]
    assert 2.5 < wall["distance"] <= hit["point"][0] - 4 + 1e-3
    dx, dz = wall["point"][0] - 4, wall["point"][2] - 4
    assert math.hypot(dx, dz) == pytest.approx(wall["distance"], abs=1e-3)
    assert math.hypot(wall["normal"][0], wall["normal"][2]) == pytest.approx(1.0)
    none = navmesh.distance_to_wall([4, 0, 4], 1.0)
    assert not none["found"] and none["distance"] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        navmesh.distance_to_wall([4, 0, 4], -1.0)


def test_a_sliced_search_gives_the_one_shot_path(navmesh):
    one_shot = navmesh.find_path([2, 0, 4], [14, 0, 4])
    search = navmesh.begin_path([2, 0, 4], [14, 0, 4])
    with pytest.raises(ValueError):
        search.finish()
    updates, done = 0, False
    while not done:
        done, expanded = search.update(1)
        assert expanded <= 1
        updates += 1
    assert updates > 1
    path = search.finish()
    assert path.status == one_shot.status == "found"
    assert path.length == one_shot.length and path.jump_count == one_shot.jump_count
    assert np.array_equal(path.points, one_shot.points)
    with pytest.raises(ValueError):
        search.update(0)


def write_obj(path, vertices, triangles):
    with open(path, "w") as f:
        for x, y, z in vertices.tolist():
            f.write(f"v {x!r} {y!r} {z!r}\n")
        for a, b, c in triangles.tolist():
            f.write(f"f {a + 1} {b + 1} {c + 1}\n")


@pytest.mark.parametrize("link_set", ["compact", "full"])
def test_built_links_are_the_clis_and_every_one_passes_the_exact_check(tmp_path, link_set):
    if not CLI.exists():
        pytest.skip(f"no CLI at {CLI} (set LEAPNAV_CLI)")
    v, t = slabs()
    nav = leapnav.build(v, t, config="default", jumps=["C2"], step=4, link_set=link_set)
    count = nav.stats["jump_links"]
    assert count > 0
    # every link crosses the gap [8, 10]: it starts on one slab and lands on the other
    links = nav.links
    near = links["start"][:, 0] <= 8.0
    assert (near | (links["start"][:, 0] >= 10.0)).all()
    for end in ("land_a", "land_b"):
        x = links[end][:, 0]
        assert (np.where(near, x >= 10.0, x <= 8.0)).all()
    mine = tmp_path / "python.lnav"
    nav.save(str(mine))
    scene = tmp_path / "slabs.obj"
    write_obj(scene, v, t)
    theirs = tmp_path / "cli.lnav"
    cli_stats = tmp_path / "cli.json"
    subprocess.run([str(CLI), "build", str(scene), "--jump", "C2", "--step", "4", "--link-set",
                    link_set, "-o", str(theirs), "--stats", str(cli_stats)], check=True,
                   capture_output=True)
    # the same file, byte for byte: the same navmesh and the same links in the same encoding
    assert mine.read_bytes() == theirs.read_bytes()
    # and the same byte counts under the same names (file bytes, memory bytes)
    built = json.loads(cli_stats.read_text())
    assert nav.stats["jump_bytes"] == built["jump_bytes"]
    assert nav.stats["jump_memory_bytes"] == built["jump_memory_bytes"]
    report = subprocess.run([str(CLI), "check-links", str(mine), str(scene), "--json"], check=True,
                            capture_output=True, text=True)
    checked = json.loads(report.stdout)
    assert checked["links_checked"] == count
    assert checked["links_failed"] == 0


def test_a_full_link_set_is_no_smaller_than_the_compact_one_and_bad_names_raise():
    v, t = slabs()
    full = leapnav.build(v, t, jumps=["C2"], step=4, link_set="full")
    compact = leapnav.build(v, t, jumps=["C2"], step=4)
    assert full.stats["jump_links"] >= compact.stats["jump_links"] > 0
    with pytest.raises(ValueError, match="link_set"):
        leapnav.build(v, t, jumps=["C2"], step=4, link_set="all")


# a slab 1.25 m above the floor across a 0.5 m gap: one jump-up link climbs it, one drop link leaves
RISE = (((0, -0.5, 0), (8, 0, 8)), ((8.5, 0.75, 0), (16.5, 1.25, 8)))
RISE_CONFIG = {"base": "thesis", "agent": {"max_jump_up": 1.5}}


def test_ledge_links_are_built_planned_over_saved_and_the_clis(tmp_path):
    v, t = boxes(*RISE)
    nav = leapnav.build(v, t, config=RISE_CONFIG, ledge_links=True)
    assert nav.stats["ledge_links"] == 2 and "jump_links" not in nav.stats
    assert sorted(nav.ledge_links["kind"]) == ["drop", "jump_up"]
    low, high = [2, 0, 3], [14, 1.25, 3]
    up = nav.find_path(low, high)
    assert up.status == "found"
    assert [s["kind"] for s in up.segments].count("jump_up") == 1
    down = nav.find_path(high, low)
    assert [s["kind"] for s in down.segments].count("drop") == 1
    assert nav.find_path(low, high, ledge_links=False).status == "no_path"
    assert leapnav.build(v, t, config=RISE_CONFIG).find_path(low, high).status == "no_path"
    saved = tmp_path / "rise.lnav"
    nav.save(str(saved))
    loaded = leapnav.load(str(saved))
    assert loaded.stats["ledge_hash"] == nav.stats["ledge_hash"]
    assert loaded.find_path(low, high).length == up.length
    if not CLI.exists():
        pytest.skip(f"no CLI at {CLI} (set LEAPNAV_CLI)")
    scene = tmp_path / "rise.obj"
    write_obj(scene, v, t)
    config = tmp_path / "rise.json"
    config.write_text(json.dumps(RISE_CONFIG))
    theirs = tmp_path / "cli.lnav"
    subprocess.run([str(CLI), "build", str(scene), "--ledge-links", "--config", str(config), "-o",
                    str(theirs)], check=True, capture_output=True)
    cli = leapnav.load(str(theirs)).stats
    assert (cli["hash"], cli["ledge_hash"]) == (nav.stats["hash"], nav.stats["ledge_hash"])


def test_a_tiled_build_is_the_clis_and_unloaded_tiles_block_paths(tmp_path):
    v, t = slabs()
    nav = leapnav.build(v, t, jumps=["C2"], step=4, tile_size=16)
    assert nav.tile_count > 1 and nav.stats["jump_links"] > 0
    start, goal = [2, 0, 4], [16, 0, 4]
    whole = nav.find_path(start, goal)
    assert whole.status == "found" and whole.jump_count == 1 and whole.unloaded_tile is None
    blocking = []
    for tile in range(nav.tile_count):
        nav.unload_tile(tile)
        cut = nav.find_path(start, goal)
        if cut.status == "no_path":
            assert cut.blocked_by_unloaded_tiles
            if cut.unloaded_tile == tile:
                blocking.append(tile)
        nav.load_tile(tile)
    assert len(blocking) >= 2  # the tiles of the start and of the goal at least
    assert nav.find_path(start, goal).length == whole.length
    with pytest.raises(ValueError, match="tile"):
        nav.unload_tile(nav.tile_count)
    with pytest.raises(ValueError, match="tile_size"):
        leapnav.build(v, t, tile_size=3)
    if not CLI.exists():
        pytest.skip(f"no CLI at {CLI} (set LEAPNAV_CLI)")
    mine = tmp_path / "python.lnav"
    nav.save(str(mine))
    scene = tmp_path / "slabs.obj"
    write_obj(scene, v, t)
    theirs = tmp_path / "cli.lnav"
    subprocess.run([str(CLI), "build", str(scene), "--jump", "C2", "--step", "4", "--tile-size",
                    "16", "-o", str(theirs)], check=True, capture_output=True)
    assert mine.read_bytes() == theirs.read_bytes()


# two slabs 2 m apart joined by a 2 m wide bridge at one end: jumps across the gap near the
# bridge save no walking, so the walkable-link filter drops some of them
BRIDGED = (((0, -0.5, 0), (8, 0, 8)), ((10, -0.5, 0), (18, 0, 8)), ((7.9, -0.5, 0), (10.1, 0, 2)))


@pytest.mark.parametrize("tile_size", [0, 16])
def test_the_walkable_link_filter_modes_are_the_clis(tmp_path, tile_size):
    v, t = boxes(*BRIDGED)
    counts = {}
    for mode in ("groups", "links", "off"):
        nav = leapnav.build(v, t, jumps=["C2"], step=4, tile_size=tile_size, walkable_filter=mode)
        counts[mode] = nav.stats["jump_links"]
        nav.save(str(tmp_path / f"{mode}.lnav"))
    # dropping one by one drops at least what whole groups do; keeping keeps more than either
    assert counts["off"] > counts["groups"] >= counts["links"] > 0
    with pytest.raises(ValueError, match="walkable_filter"):
        leapnav.build(v, t, jumps=["C2"], step=4, walkable_filter="none")
    if not CLI.exists():
        pytest.skip(f"no CLI at {CLI} (set LEAPNAV_CLI)")
    scene = tmp_path / "bridged.obj"
    write_obj(scene, v, t)
    flags = {"groups": [], "links": ["--walkable-filter", "links"], "off": ["--keep-walkable-links"]}
    for mode, extra in flags.items():
        theirs = tmp_path / f"cli_{mode}.lnav"
        tiles = ["--tile-size", str(tile_size)] if tile_size else []
        subprocess.run([str(CLI), "build", str(scene), "--jump", "C2", "--step", "4", *tiles,
                        *extra, "-o", str(theirs)], check=True, capture_output=True)
        assert (tmp_path / f"{mode}.lnav").read_bytes() == theirs.read_bytes(), mode


def test_a_tile_pack_streams_tiles_and_frees_them(tmp_path):
    v, t = slabs()
    nav = leapnav.build(v, t, jumps=["C2"], step=4, tile_size=16)
    pack = tmp_path / "slabs.lnavpack"
    nav.pack(pack)
    world = leapnav.World(pack)
    assert world.tile_count == nav.tile_count
    start, goal = [2, 0, 4], [16, 0, 4]
    empty = world.resident_bytes
    nothing = world.find_path(start, goal)
    assert nothing.status == "no_path" and nothing.unloaded_tile == world.tile_at(start)
    world.set_loaded(list(range(world.tile_count)))
    whole = nav.find_path(start, goal)
    streamed = world.find_path(start, goal)
    assert streamed.status == "found" and streamed.jump_count == whole.jump_count
    assert math.isclose(streamed.length, whole.length, rel_tol=1e-6)
    full = world.resident_bytes
    assert full > empty
    goal_tile = world.tile_at(goal)
    world.unload_tile(goal_tile)
    assert not world.tile_loaded(goal_tile)
    cut = world.find_path(start, goal)
    assert cut.status == "no_path" and cut.unloaded_tile == goal_tile
    assert cut.blocked_by_unloaded_tiles
    assert world.resident_bytes < full
    world.load_tile(goal_tile)
    assert world.find_path(start, goal).length == streamed.length
    assert world.tile_at([1e6, 0, 1e6]) is None
    with pytest.raises(ValueError, match="tile"):
        world.load_tile(world.tile_count)
    with pytest.raises(OSError, match="missing.lnavpack"):
        leapnav.World(tmp_path / "missing.lnavpack")
    with pytest.raises(ValueError, match="no tiles"):
        leapnav.build(v, t).pack(tmp_path / "flat.lnavpack")
    if not CLI.exists():
        pytest.skip(f"no CLI at {CLI} (set LEAPNAV_CLI)")
    nav.save(tmp_path / "slabs.lnav")
    subprocess.run([str(CLI), "pack", str(tmp_path / "slabs.lnav"), "-o",
                    str(tmp_path / "cli.lnavpack")], check=True, capture_output=True)
    assert (tmp_path / "cli.lnavpack").read_bytes() == pack.read_bytes()


def test_a_tile_pack_keeps_ledge_links_across_a_tile_border(tmp_path):
    # 16-cell tiles of 0.25 m: the tile border x = 8 lies in the gap, so the links cross it
    v, t = boxes(*RISE)
    nav = leapnav.build(v, t, config=RISE_CONFIG, ledge_links=True, tile_size=16)
    assert nav.stats["ledge_links"] > 0
    pack = tmp_path / "rise.lnavpack"
    nav.pack(pack)
    world = leapnav.World(pack)
    world.set_loaded(list(range(world.tile_count)))
    low, high = [2, 0, 3], [14, 1.25, 3]
    up = world.find_path(low, high)
    assert up.status == "found"
    assert [s["kind"] for s in up.segments].count("jump_up") == 1
    assert math.isclose(up.length, nav.find_path(low, high).length, rel_tol=1e-6)
    assert world.find_path(low, high, ledge_links=False).status == "no_path"
