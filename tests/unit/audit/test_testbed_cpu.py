"""Rule ``testbed_cpu``: logical processors, cores and clock against a stated host CPU capacity."""


def test_testbed_cpu(rec, run):
    tb = {"statistic": "single", "phase": "testbed", "test_id": "testbed", "locator": "Table 4", "vantage": ""}
    bad = [
        rec("cpu_clock", "2.50GHz", 2.5, unit="GHz", line=365, **tb),
        rec("logical_processors", "40", 40, unit="count", line=369, **tb),
        rec("host_cpu_capacity", "44 GHz", 44, unit="GHz", line=373, **tb),
    ]
    f = run(bad, "testbed_cpu")
    assert len(f) == 1 and "50 GHz" in f.at[0, "message"] and "44 GHz" in f.at[0, "message"]
    good = [dict(r, locator="Table 3") for r in bad]
    good[1].update(value=32.0, value_low=32.0, value_high=32.0, reported_value=32.0, value_text="32")
    good[2].update(value=40.0, value_low=40.0, value_high=40.0, reported_value=40.0, value_text="40 GHz")
    assert run(good, "testbed_cpu").empty  # 32 logical = 16 cores x 2.5 GHz = 40 GHz
    threads = [
        rec("host_cores", "12 cores", 12, unit="count", line=271, **tb),
        rec("host_threads", "24 with hyperthreading", 24, unit="count", line=271, **tb),
    ]
    assert run(threads, "testbed_cpu").empty
    threads[1].update(value=30.0, value_low=30.0, value_high=30.0, reported_value=30.0, value_text="30")
    assert len(run(threads, "testbed_cpu")) == 1
    # a capacity in another table (another host type) is not paired
    other = bad[:2] + [dict(bad[2], locator="Section 4.1.3")]
    assert run(other, "testbed_cpu").empty
