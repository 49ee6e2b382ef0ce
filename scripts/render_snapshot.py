#!/usr/bin/env pvbatch
"""Renders one step of a yeex snapshot (NAME.xdmf + NAME.h5) to a PNG with ParaView.

A plane snapshot is drawn as it is; a volume is cut by a slice (--axis, --position). The colour
map is symmetric about zero (fields change sign) and a colour bar names the component.

Run it with ParaView's batch interpreter under a virtual X server (no display needed):
    xvfb-run -a pvbatch scripts/render_snapshot.py OUT/ez_xy.xdmf --component Ez --out ez.png
    xvfb-run -a pvbatch scripts/render_snapshot.py OUT/vol.xdmf --step last --axis z --position 0.064 --out v.png

--step: a step number stored in the file (e.g. 100), 'last' (default) or 'first'.
Exits 1 with a message when the file, step or component is not there.
"""
import argparse
import sys
import xml.etree.ElementTree as ElementTree

from paraview import simple as pv


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("xdmf", help="snapshot .xdmf written by yeex")
    p.add_argument("--component", default=None, help="Ex Ey Ez Hx Hy Hz (default: the first in the file)")
    p.add_argument("--step", default="last", help="time step number, 'first' or 'last' (default)")
    p.add_argument("--axis", choices=["x", "y", "z"], default="z", help="slice normal for a volume (default z)")
    p.add_argument("--position", type=float, default=None, help="slice position in metres (default: the middle)")
    p.add_argument("--out", required=True, help="PNG to write")
    p.add_argument("--size", default="1000x800", help="image size WxH (default 1000x800)")
    return p.parse_args(argv)


def fail(message):
    print("render_snapshot: " + message, file=sys.stderr)
    sys.exit(1)


def main(argv):
    args = parse_args(argv)
    # The snapshot's grids are named step_NNNNNNNN, in time order (io/snapshot_writer.cpp).
    try:
        grids = ElementTree.parse(args.xdmf).getroot().iter("Grid")
    except (OSError, ElementTree.ParseError) as e:
        fail("%s: %s" % (args.xdmf, e))
    steps = [int(g.get("Name").split("_")[-1]) for g in grids if g.get("Name", "").startswith("step_")]
    if not steps:
        fail(args.xdmf + ": no steps (is it a yeex snapshot?)")
    reader = pv.Xdmf3ReaderS(FileName=[args.xdmf])
    times = list(reader.TimestepValues) if len(steps) > 1 else [reader.TimestepValues or 0.0]
    reader.UpdatePipeline(times[-1])
    arrays = list(reader.PointData.keys())
    if not arrays:
        fail(args.xdmf + ": no field arrays (is it a yeex snapshot?)")
    component = args.component or arrays[0]
    if component not in arrays:
        fail("component %s not in %s (it has %s)" % (component, args.xdmf, ", ".join(arrays)))

    if args.step == "last":
        index = len(times) - 1
    elif args.step == "first":
        index = 0
    elif args.step.isdigit() and int(args.step) in steps:
        index = steps.index(int(args.step))
    else:
        fail("step %s not in %s (steps: %s)" % (args.step, args.xdmf, ", ".join(map(str, steps))))
    time = times[index]

    reader.UpdatePipeline(time)
    bounds = reader.GetDataInformation().GetBounds()
    axis = "xyz".index(args.axis)
    extent = [bounds[2 * a + 1] - bounds[2 * a] for a in range(3)]
    thin = [a for a in range(3) if extent[a] == 0.0]
    if thin:  # a plane snapshot: draw it, looking along its normal
        source, normal = reader, thin[0]
    else:
        position = args.position if args.position is not None else 0.5 * (bounds[2 * axis] + bounds[2 * axis + 1])
        source = pv.Slice(Input=reader)
        source.SliceType = "Plane"
        origin = [0.5 * (bounds[2 * a] + bounds[2 * a + 1]) for a in range(3)]
        origin[axis] = position
        source.SliceType.Origin = origin
        source.SliceType.Normal = [1.0 if a == axis else 0.0 for a in range(3)]
        normal = axis

    width, height = (int(v) for v in args.size.split("x"))
    view = pv.CreateView("RenderView")
    view.ViewSize = [width, height]
    view.ViewTime = time
    view.OrientationAxesVisibility = 1
    view.Background = [1, 1, 1]
    if hasattr(view, "UseColorPaletteForBackground"):
        view.UseColorPaletteForBackground = 0
    display = pv.Show(source, view)
    display.Representation = "Surface"
    pv.ColorBy(display, ("POINTS", component))
    source.UpdatePipeline(time)
    low, high = source.GetDataInformation().GetPointDataInformation().GetArrayInformation(component).GetComponentRange(0)
    peak = max(abs(low), abs(high)) or 1.0
    lut = pv.GetColorTransferFunction(component)
    lut.ApplyPreset("Cool to Warm", True)
    lut.RescaleTransferFunction(-peak, peak)
    bar = pv.GetScalarBar(lut, view)
    bar.Title = "%s (%s)" % (component, "V/m" if component.startswith("E") else "A/m")
    bar.ComponentTitle = ""
    bar.TitleColor = bar.LabelColor = [0, 0, 0]
    display.SetScalarBarVisibility(view, True)
    title = pv.Text(Text="%s  t = %.4g ns" % (component, time * 1e9))
    text = pv.Show(title, view)
    text.Color = [0, 0, 0]
    text.WindowLocation = "Upper Center"

    camera_direction = [0.0, 0.0, 0.0]
    camera_direction[normal] = 1.0
    view.CameraPosition = camera_direction
    view.CameraFocalPoint = [0.0, 0.0, 0.0]
    view.CameraViewUp = [0.0, 1.0, 0.0] if normal != 1 else [0.0, 0.0, 1.0]
    view.ResetCamera()
    pv.Render(view)
    pv.SaveScreenshot(args.out, view, ImageResolution=[width, height])
    print("render_snapshot: %s step %d (t = %.4g s), %s in [%.3g, %.3g] -> %s"
          % (args.xdmf, steps[index], time, component, low, high, args.out))


if __name__ == "__main__":
    main(sys.argv[1:])
