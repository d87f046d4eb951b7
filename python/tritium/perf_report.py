"""``perf_report`` / ``Benchmark``: the benchmark tables of Triton's tutorials
(``triton.testing.perf_report``, ``triton.testing.Benchmark``), re-exported by
``tritium.testing``.

``Benchmark(x_names, x_vals, line_arg, line_vals, line_names, plot_name, args=None,
xlabel="", ylabel="", x_log=False, y_log=False, styles=None, color=None)`` describes a table:
one row per entry of ``x_vals`` (bound to every name of ``x_names``, or element-wise when the
entry is a tuple), one column per entry of ``line_vals`` (passed as the keyword
``line_arg``, titled by ``line_names``). ``@perf_report(benchmarks)`` wraps a function
``fn(**x, line_arg=value, **args)`` returning a figure (e.g. GB/s) or a (value, min, max)
triple; ``.run(print_data=False, show_plots=False, save_path="", return_df=False, **kwargs)``
calls it for every cell in row order and returns the tables.

Tables are pandas DataFrames when pandas is installed (as upstream), else lists of dicts
with the same columns. Plots need matplotlib; without it ``show_plots`` / ``save_path``
print one line saying so on stderr and only the data is produced (``save_path`` still gets
the CSV files).
"""

from __future__ import annotations

import csv
import os
import sys


class Benchmark:
    """One table of a perf_report (see the module docstring)."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args=None, xlabel="",
                 ylabel="", x_log=False, y_log=False, styles=None, color=None):
        self.x_names = list(x_names)
        self.x_vals = list(x_vals)
        self.line_arg = line_arg
        self.line_vals = list(line_vals)
        self.line_names = list(line_names)
        if len(self.line_names) != len(self.line_vals):
            raise ValueError(f"Benchmark '{plot_name}': {len(self.line_vals)} line_vals but "
                             f"{len(self.line_names)} line_names")
        self.plot_name = plot_name
        self.args = dict(args or {})
        self.xlabel, self.ylabel = xlabel, ylabel
        self.x_log, self.y_log = x_log, y_log
        self.styles, self.color = styles, color


def _columns(bench):
    return bench.x_names + [c for n in bench.line_names for c in (n, f"{n}-min", f"{n}-max")]


class Mark:
    """What ``@perf_report`` returns: the function and its benchmarks; ``run`` fills the tables."""

    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def _table(self, bench, **kwargs):
        rows = []
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
            if len(xs) != len(bench.x_names):
                raise ValueError(f"Benchmark '{bench.plot_name}': x value {x!r} does not match x_names "
                                 f"{bench.x_names}")
            row = dict(zip(bench.x_names, xs))
            for value, name in zip(bench.line_vals, bench.line_names):
                ret = self.fn(**dict(zip(bench.x_names, xs)), **{bench.line_arg: value}, **bench.args, **kwargs)
                mid, lo, hi = (tuple(ret) + (None, None))[:3] if isinstance(ret, (list, tuple)) else (ret, None, None)
                row[name], row[f"{name}-min"], row[f"{name}-max"] = mid, lo, hi
            rows.append(row)
        return rows

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False, **kwargs):
        benches = self.benchmarks if isinstance(self.benchmarks, (list, tuple)) else [self.benchmarks]
        out = []
        for bench in benches:
            rows = self._table(bench, **kwargs)
            shown = bench.x_names + bench.line_names  # upstream prints the medians only
            try:
                import pandas as pd
                table = pd.DataFrame(rows, columns=_columns(bench))
            except ImportError:
                table = rows
            if print_data:
                print(bench.plot_name + ":")
                print(_format(rows, shown))
            if save_path:
                os.makedirs(save_path, exist_ok=True)
                with open(os.path.join(save_path, f"{bench.plot_name}.csv"), "w", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=shown, extrasaction="ignore")
                    w.writeheader()
                    w.writerows(rows)
            if show_plots or save_path:
                _plot(bench, rows, show_plots, save_path)
            out.append(table)
        if return_df:
            return out[0] if len(out) == 1 else out
        return None


def _format(rows, cols):
    def cell(v):
        return f"{v:.6g}" if isinstance(v, float) else str(v)

    text = [[cell(r.get(c)) for c in cols] for r in rows]
    widths = [max([len(c)] + [len(t[i]) for t in text]) for i, c in enumerate(cols)]
    lines = ["  ".join(c.rjust(w) for c, w in zip(cols, widths))]
    lines += ["  ".join(v.rjust(w) for v, w in zip(t, widths)) for t in text]
    return "\n".join(lines)


def _plot(bench, rows, show, save_path):
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"perf_report '{bench.plot_name}': matplotlib is not installed; no plot drawn", file=sys.stderr)
        return
    fig, ax = plt.subplots()
    x = [r[bench.x_names[0]] for r in rows]
    for i, name in enumerate(bench.line_names):
        style = bench.styles[i] if bench.styles and i < len(bench.styles) else None
        kw = {"color": style[0], "linestyle": style[1]} if style else {}
        ax.plot(x, [r[name] for r in rows], label=name, **kw)
    ax.set_xlabel(bench.xlabel or bench.x_names[0])
    ax.set_ylabel(bench.ylabel)
    if bench.x_log:
        ax.set_xscale("log")
    if bench.y_log:
        ax.set_yscale("log")
    ax.legend()
    ax.set_title(bench.plot_name)
    if save_path:
        fig.savefig(os.path.join(save_path, f"{bench.plot_name}.png"))
    if show:
        plt.show()
    plt.close(fig)


def perf_report(benchmarks):
    """Decorator: ``@perf_report(Benchmark(...))`` (or a list of them) -> a Mark with ``.run``."""
    return lambda fn: Mark(fn, benchmarks)
