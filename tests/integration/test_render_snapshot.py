"""Unit checks of scripts/render_snapshot.py's picture logic (CTest render_snapshot_logic): the
image array and its extent (orientation, never mirrored), the colour range and the outlines.

    python3 tests/integration/test_render_snapshot.py SOURCE_DIR
"""
import importlib.util
import math
import os
import sys
import unittest

import numpy as np

SOURCE = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
spec = importlib.util.spec_from_file_location("render_snapshot", os.path.join(SOURCE, "scripts", "render_snapshot.py"))
render = importlib.util.module_from_spec(spec)
spec.loader.exec_module(render)

UNIT = np.eye(3)


def sample_field(nodes):
    """field[k, j, i] = 1 i + 100 j + 10000 k: every node's value names its (i, j, k)."""
    nx, ny, nz = nodes
    k, j, i = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    return 1.0 * i + 100.0 * j + 10000.0 * k


class PlaneImage(unittest.TestCase):
    nodes = (5, 4, 3)
    origin = np.array([0.5, -1.0, 0.25])
    cell = np.array([1e-3, 2e-3, 3e-3])

    def test_each_pixel_lies_where_its_node_is(self):
        field = sample_field(self.nodes)
        for normal in range(3):
            index = self.nodes[normal] - 1
            image, extent, (h, v) = render.plane_image(field, self.origin, self.cell, normal, index)
            self.assertEqual(image.shape, (self.nodes[v], self.nodes[h]))
            for row in range(image.shape[0]):
                for column in range(image.shape[1]):
                    # imshow(origin="lower"): pixel (row, column) is centred at these coordinates.
                    x_h = extent[0] + (column + 0.5) * (extent[1] - extent[0]) / image.shape[1]
                    x_v = extent[2] + (row + 0.5) * (extent[3] - extent[2]) / image.shape[0]
                    node = [0, 0, 0]
                    node[normal] = index
                    node[h] = round((x_h - self.origin[h]) / self.cell[h])
                    node[v] = round((x_v - self.origin[v]) / self.cell[v])
                    self.assertAlmostEqual(x_h, self.origin[h] + node[h] * self.cell[h])
                    self.assertAlmostEqual(x_v, self.origin[v] + node[v] * self.cell[v])
                    self.assertEqual(image[row, column], node[0] + 100 * node[1] + 10000 * node[2])

    def test_views_are_right_handed_as_documented(self):
        # (right, up, towards the viewer) is a right-handed triad: z seen from +z, x from +x, y from -y.
        towards_viewer = {0: UNIT[0], 1: -UNIT[1], 2: UNIT[2]}
        for normal in range(3):
            h, v = render.VIEW[normal]
            np.testing.assert_array_equal(np.cross(UNIT[h], UNIT[v]), towards_viewer[normal])
        self.assertEqual(render.VIEW[1], (0, 2))  # a y plane: x to the right, z up

    def test_asymmetric_y_plane_is_not_mirrored(self):
        # One hot node at large x, small z: it must be at the right and at the bottom of the picture.
        field = np.zeros(self.nodes[::-1])
        field[0, 1, 4] = 1.0  # k = 0, j = 1, i = 4
        image, extent, (h, v) = render.plane_image(field, self.origin, self.cell, 1, 1)
        self.assertEqual((h, v), (0, 2))
        self.assertEqual(np.argwhere(image == 1.0).tolist(), [[0, 4]])  # bottom row, last column
        self.assertLess(extent[0], extent[1])
        self.assertLess(extent[2], extent[3])

    def test_extent_holds_pixels_centred_on_nodes(self):
        field = np.zeros((65, 65, 65))
        image, extent, _ = render.plane_image(field, np.zeros(3), np.full(3, 2e-3), 2, 32)
        np.testing.assert_allclose(extent, [-1e-3, 0.129, -1e-3, 0.129])

    def test_stagger_shifts_the_values_in_the_plane(self):
        field = np.zeros((1, 4, 5))
        stagger = np.array([0.5e-3, 0.0, 1.5e-3])  # Ex: half a cell along x; the z part is the normal's
        _, plain, _ = render.plane_image(field, self.origin, self.cell, 2, 0)
        _, shifted, _ = render.plane_image(field, self.origin, self.cell, 2, 0, stagger)
        np.testing.assert_allclose(np.subtract(shifted, plain), [0.5e-3, 0.5e-3, 0, 0])


class ColourRange(unittest.TestCase):
    def test_a_source_spike_does_not_set_the_range(self):
        field = np.sin(np.linspace(0, 20, 10000))
        field[1234] = 1e6  # the source node
        limit = render.colour_limit(field)
        self.assertGreater(limit, 0.9)
        self.assertLess(limit, 1.0)

    def test_the_user_range_wins(self):
        self.assertEqual(render.colour_limit(np.array([1.0, -5.0]), 99.5, 0.25), 0.25)

    def test_a_sparse_or_empty_field_still_gets_a_positive_range(self):
        sparse = np.zeros(1000)
        sparse[3] = -2.0
        self.assertEqual(render.colour_limit(sparse), 2.0)
        self.assertEqual(render.colour_limit(np.zeros(10)), 1.0)
        self.assertEqual(render.colour_limit(np.array([np.nan, 3.0])), 3.0)

    def test_scales_are_symmetric(self):
        for log in (False, True):
            norm = render.colour_norm(2.0, log)
            self.assertAlmostEqual(float(norm(0.0)), 0.5)
            self.assertAlmostEqual(float(norm(2.0)), 1.0)
            self.assertAlmostEqual(float(norm(-2.0)), 0.0)
        self.assertLess(float(render.colour_norm(2.0, True)(2e-3)), 0.75)  # log: small values stay pale


class Outlines(unittest.TestCase):
    deck = {
        "geometry": [
            {"shape": "box", "material": "dielectric", "lower": [0.072, 0.040, 0.030], "upper": [0.104, 0.088, 0.080]},
            {"shape": "sphere", "material": "pec", "centre": [0.02, 0.03, 0.04], "radius": 0.01},
            {"shape": "cylinder", "material": "wet", "axis": "z", "centre": [0.05, 0.06, 0.0], "radius": 0.005,
             "lower": 0.01, "upper": 0.02},
        ],
        "boundary": {"all": "cpml", "z_max": "pec"},
        "source": [{"name": "tx", "position": [0.064, 0.064, 0.064]}],
        "probe": [{"name": "rx", "position": [0.04, 0.064, 0.0645]}, {"name": "far", "position": [0, 0, 0.1]}],
    }

    def cut(self, normal, position):
        return {material: (kind, geometry) for kind, geometry, material in render.outlines(self.deck, normal, position)}

    def test_box_cut_by_a_y_plane(self):
        self.assertEqual(set(self.cut(1, 0.064)), {"dielectric", "wet"})
        kind, (h0, v0, width, height) = self.cut(1, 0.064)["dielectric"]
        self.assertEqual(kind, "rectangle")
        np.testing.assert_allclose([h0, v0, width, height], [0.072, 0.030, 0.032, 0.050])  # x across, z up
        self.assertEqual(set(self.cut(1, 0.0881)), set())

    def test_sphere_cut_off_centre(self):
        kind, (h, v, r) = self.cut(2, 0.046)["pec"]
        self.assertEqual(kind, "circle")
        np.testing.assert_allclose([h, v, r], [0.02, 0.03, math.sqrt(0.01 ** 2 - 0.006 ** 2)])

    def test_cylinder_across_and_along_its_axis(self):
        kind, circle = self.cut(2, 0.015)["wet"]
        self.assertEqual(kind, "circle")
        np.testing.assert_allclose(circle, [0.05, 0.06, 0.005])
        self.assertNotIn("wet", self.cut(2, 0.021))
        kind, rectangle = self.cut(0, 0.05)["wet"]  # x = 0.05 through the axis: y across (h), z along (v)
        self.assertEqual(kind, "rectangle")
        np.testing.assert_allclose(rectangle, [0.055, 0.01, 0.01, 0.01])
        self.assertNotIn("wet", self.cut(0, 0.056))

    def test_points_and_cpml(self):
        found = render.points_on_plane(self.deck, 2, 0.064, 1e-3)
        self.assertEqual([(kind, name) for kind, name, _, _ in found], [("source", "tx"), ("probe", "rx")])
        self.assertEqual(render.cpml_depths(self.deck), {f: 10 for f in render.FACES if f != "z_max"})


if __name__ == "__main__":
    unittest.main()
