"""tritium.testing.perf_report / Benchmark (the tutorials' tables): every cell is the
function's value for its x and line, in row order, with tuples split into (value, min, max);
print_data prints the table under the plot name; save_path writes the CSV."""

import csv

import numpy as np

import tritium


def test_perf_report_tables(capsys, tmp_path):
    calls = []

    @tritium.testing.perf_report([
        tritium.testing.Benchmark(x_names=["N"], x_vals=[2, 8], line_arg="provider", line_vals=["a", "b"],
                                  line_names=["A", "B"], plot_name="sizes", args={"scale": 3}),
        tritium.testing.Benchmark(x_names=["M", "N"], x_vals=[(1, 5)], line_arg="provider", line_vals=["a"],
                                  line_names=["A"], plot_name="pairs", args={"scale": 1}),
    ])
    def bench(N, provider, scale, M=0):
        calls.append((M, N, provider, scale))
        v = float(N * scale + (1 if provider == "b" else 0) + M)
        return (v, v - 0.5, v + 0.5) if provider == "b" else v

    tables = bench.run(print_data=True, save_path=str(tmp_path), return_df=True)
    assert calls == [(0, 2, "a", 3), (0, 2, "b", 3), (0, 8, "a", 3), (0, 8, "b", 3), (1, 5, "a", 1)]
    rows = [t.to_dict("records") if hasattr(t, "to_dict") else t for t in tables]
    assert [(r["N"], r["A"], r["B"], r["B-min"], r["B-max"]) for r in rows[0]] == \
        [(2, 6.0, 7.0, 6.5, 7.5), (8, 24.0, 25.0, 24.5, 25.5)]
    assert rows[0][0]["A-min"] is None or np.isnan(rows[0][0]["A-min"])
    assert (rows[1][0]["M"], rows[1][0]["N"], rows[1][0]["A"]) == (1, 5, 6.0)
    out = capsys.readouterr().out
    assert "sizes:" in out and "pairs:" in out and "25" in out
    with open(tmp_path / "sizes.csv") as f:
        saved = list(csv.DictReader(f))
    assert [(r["N"], float(r["A"]), float(r["B"])) for r in saved] == [("2", 6.0, 7.0), ("8", 24.0, 25.0)]
