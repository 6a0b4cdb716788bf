"""Pull the result table from a Shortcut Audit server (docs/api.md), with Python's standard library.

    SHORTCUT_AUDIT_URL=http://localhost:3000 SHORTCUT_AUDIT_TOKEN=sat_... python3 pull_results.py

Prints one line per condition: benchmark, model, network, prompt, trajectories judged, and the
percentage the panel found attempting an exploit. With pandas, the CSV is one line away:

    pandas.read_csv(io.StringIO(get("/results?format=csv")))
"""

import json
import os
import urllib.error
import urllib.request

BASE = os.environ.get("SHORTCUT_AUDIT_URL", "http://localhost:3000").rstrip("/") + "/api/v1"
TOKEN = os.environ["SHORTCUT_AUDIT_TOKEN"]


def get(path: str) -> str:
    request = urllib.request.Request(BASE + path, headers={"Authorization": f"Bearer {TOKEN}"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        error = json.loads(e.read().decode("utf-8"))["error"]
        raise SystemExit(f"{e.code} {error['code']}: {error['message']}")


for row in json.loads(get("/results?format=json")):
    rate = row["attempt_rate"]
    print(
        row["benchmark"],
        row["model"],
        "network" if row["network"] else "no network",
        row["prompt"],
        row["judged"],
        "—" if rate is None else f"{rate:.1f}%",
        sep="\t",
    )
