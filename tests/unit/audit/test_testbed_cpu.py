"""Rule ``testbed_cpu``: logical processors, cores and clock against a stated host CPU capacity."""


def test_testbed_cpu(rec, run, restate):
    tb = {"statistic": "single", "phase": "testbed", "test_id": "testbed", "locator": "Table 4", "vantage": ""}
    bad = [
        rec("cpu_clock", "2.50GHz", 2.5, unit="GHz", line=365, **tb),
        rec("logical_processors", "40", 40, unit="count", line=369, **tb),
        rec("host_cpu_capacity", "44 GHz", 44, unit="GHz", line=373, **tb),
    ]
    f = run(bad, "testbed_cpu")
    assert len(f) == 1 and "50 GHz" in f.at[0, "message"] and "44 GHz" in f.at[0, "message"]
    good = [dict(r, locator="Table 3") for r in bad]
    restate(good[1], 32.0, "32")
    restate(good[2], 40.0, "40 GHz")
    assert run(good, "testbed_cpu").empty  # 32 logical = 16 cores x 2.5 GHz = 40 GHz
    threads = [
        rec("host_cores", "12 cores", 12, unit="count", line=271, **tb),
        rec("host_threads", "24 with hyperthreading", 24, unit="count", line=271, **tb),
    ]
    assert run(threads, "testbed_cpu").empty
    restate(threads[1], 30.0, "30")
    assert len(run(threads, "testbed_cpu")) == 1
    # a capacity in another table (another host type) is not paired
    other = bad[:2] + [dict(bad[2], locator="Section 4.1.3")]
    assert run(other, "testbed_cpu").empty
