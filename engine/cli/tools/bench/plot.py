"""``python -m engine bench --plot FILE.png``: the FOV figures as a chart (matplotlib, the optional
extra ``plot``): CPU µs per call against the radius, one panel per map size (the bench's caves),
ours (compiled, and the pure-Python references dashed) beside libtcod's ``compute_fov`` (dotted),
on a log scale."""

from __future__ import annotations

import importlib.util
from pathlib import Path

MISSING = "bench: --plot needs matplotlib: pip install 'undercroft[plot]'"


def available() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


def target_problem(spec: str, flag: str = "--plot") -> str | None:
    """Why a chart cannot be written to ``spec`` (checked before the figures are measured), as one
    line, or None: a format matplotlib does not write, a missing folder, a folder, a special file."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from engine.persist.files import not_a_file

    path = Path(spec)
    formats = sorted(FigureCanvasAgg(Figure()).get_supported_filetypes())
    if path.suffix.lower().lstrip(".") not in formats:
        return f"{flag} {spec}: not a chart format (expected a file ending in .{', .'.join(formats)})"
    folder = path.parent  # "." for a bare name: a parent is never empty
    if path.is_dir():
        return f"{flag} {spec}: is a folder, not a file"
    if not folder.is_dir():
        return f"{flag} {spec}: no such folder {str(folder)!r}"
    special = not_a_file(path)
    return f"{flag} {spec}: {special} (expected a chart file to write)" if special else None


def plot(rows: list[dict], path: Path) -> None:
    """Write the chart of the ``fov`` timing rows of ``rows`` to ``path`` (a PNG)."""
    import matplotlib

    matplotlib.use("Agg")  # no window: a file
    import matplotlib.pyplot as plt

    timed = [r for r in rows if r.get("group") == "fov" and r.get("unit") == "us" and r.get("variant") in
             ("numba", "python") and r.get("terrain", "caves") == "caves"]  # the bench's cave, as ever
    maps = sorted({r["map"] for r in timed}, key=lambda m: int(m.split("x")[0]) * int(m.split("x")[1]))
    radii = sorted({r["radius"] for r in timed}, key=lambda v: float("inf") if v is None else v)
    labels = [f"r{v}" if v is not None else "none" for v in radii]
    fig, axes = plt.subplots(1, max(1, len(maps)), figsize=(5.5 * max(1, len(maps)), 5), sharey=True, squeeze=False)
    colours: dict[str, str] = {}
    for ax, size in zip(axes[0], maps, strict=False):
        here = [r for r in timed if r["map"] == size]
        for fov in sorted({r["fov"] for r in here}):
            colour = colours.setdefault(fov, f"C{len(colours)}")
            for variant, style in (("numba", "-"), ("python", "--")):
                line = {r["radius"]: r["value"] for r in here if r["fov"] == fov and r["variant"] == variant}
                if line:
                    ax.plot([labels[radii.index(v)] for v in radii if v in line], [line[v] for v in radii if v in line],
                            style, color=colour, marker="o", label=f"{fov} ({variant})")
            theirs = {r["radius"]: r["tcod"] for r in here if r["fov"] == fov and r.get("tcod")}
            if theirs:
                xs = [labels[radii.index(v)] for v in radii if v in theirs]
                ax.plot(xs, [theirs[v] for v in radii if v in theirs], ":", color=colour, marker="x",
                        label=f"{fov} (libtcod)")
        ax.set_title(f"{size} cave")
        ax.set_xlabel("radius")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("CPU µs per call (median)")
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", ncol=5, fontsize="small")
    fig.suptitle("FOV cost against radius and map size: ours (solid: compiled, dashed: pure Python) "
                 "and libtcod's compute_fov (dotted)")
    fig.tight_layout(rect=(0, 0.12, 1, 0.95))
    fig.savefig(path, dpi=100)
    plt.close(fig)
