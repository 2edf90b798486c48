#!/usr/bin/env python3
"""Samples a job's files while the cluster checks disturb it, and judges the samples.
  sample.py record SCHEDULER_URL TOKEN JOB OUT.jsonl [TIMEOUT]   every 0.5 s: t, job state, each file's state/bytes;
                                                                  until the job ends (or TIMEOUT s)
  sample.py max-active OUT.jsonl LIMIT                            every sample's ACTIVE count <= LIMIT
  sample.py stalls OUT.jsonl SINCE MAX                            after SINCE (epoch s), no file that is not done goes
                                                                  longer than MAX s without its bytes growing
  sample.py moved OUT.jsonl SINCE MAX N                        the files ACTIVE at SINCE that started again under a
                                                                  new attempt (at least N) did so within MAX s
  sample.py answers OUT.jsonl URL... (with TOKEN in $TOKEN) SECONDS   every 0.25 s each URL's status and Retry-After
Run inside the cluster's network namespace."""
import json, os, sys, time, urllib.request, urllib.error

def get(url, token, timeout=5):
    req = urllib.request.Request(url, headers={"Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers.get("Retry-After"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Retry-After"), e.read()
    except Exception as e:
        return 0, None, str(e).encode()

mode = sys.argv[1]
if mode == "record":
    url, token, job, out = sys.argv[2:6]
    timeout = float(sys.argv[6]) if len(sys.argv) > 6 else 600
    end = time.time() + timeout
    with open(out, "w") as f:
        while time.time() < end:
            t = time.time()
            s1, _, jb = get(f"{url}/jobs/{job}", token)
            s2, _, fb = get(f"{url}/jobs/{job}/files", token)
            if s1 == 200 and s2 == 200:
                state = json.loads(jb).get("job_state")
                files = [{"id": x["file_id"], "state": x["file_state"], "bytes": x.get("bytes_transferred") or 0,
                          "retry": x.get("retry", 0), "start": x.get("start_time")} for x in json.loads(fb)]
                f.write(json.dumps({"t": t, "job": state, "files": files}) + "\n"); f.flush()
                if state in ("FINISHED", "FAILED", "FINISHEDDIRTY", "CANCELED"):
                    break
            else:
                f.write(json.dumps({"t": t, "error": [s1, s2]}) + "\n"); f.flush()
            time.sleep(max(0, 0.5 - (time.time() - t)))
elif mode == "max-active":
    # with SINCE (when the replicas were all up): the samples after it that still had copies running must exist
    limit = int(sys.argv[3]); since = float(sys.argv[4]) if len(sys.argv) > 4 else 0
    worst = 0; n = 0; bad = 0; late = 0
    for line in open(sys.argv[2]):
        s = json.loads(line)
        if "files" not in s: continue
        a = sum(1 for x in s["files"] if x["state"] == "ACTIVE"); n += 1
        worst = max(worst, a); bad += a > limit
        late += s["t"] >= since and a > 0
    print(f"{n} samples, most ACTIVE at once {worst}, over {limit}: {bad}; {late} samples with copies running after all replicas were Ready")
    sys.exit(1 if bad or n == 0 or (since and late == 0) else 0)
elif mode == "stalls":
    since, mx = float(sys.argv[3]), float(sys.argv[4])
    last = {}; grew = {}; worst = (0, None)
    samples = [json.loads(l) for l in open(sys.argv[2])]
    samples = [s for s in samples if "files" in s]
    for s in samples:
        for x in s["files"]:
            fid = x["id"]
            moved = x["state"] == "FINISHED" or fid not in last or x["bytes"] != last[fid]
            last[fid] = x["bytes"]
            if s["t"] < since: grew[fid] = since; continue
            if moved or x["state"] in ("FINISHED", "FAILED", "CANCELED"):
                gap = s["t"] - grew.get(fid, since)
                if gap > worst[0]: worst = (gap, fid)
                grew[fid] = s["t"]
    # files never moving again until the end count up to the last sample
    if samples:
        for x in samples[-1]["files"]:
            if x["state"] not in ("FINISHED", "FAILED", "CANCELED"):
                gap = samples[-1]["t"] - grew.get(x["id"], since)
                if gap > worst[0]: worst = (gap, x["id"])
    print(f"longest time a file's bytes stood still after the deletion: {worst[0]:.1f}s (file {worst[1]})")
    sys.exit(1 if worst[0] > mx else 0)
elif mode == "moved":
    # files ACTIVE when the pod was deleted: those it held go back to the queue and start again under a new attempt
    # (a new start_time); each must be ACTIVE again within MAX s. Files that end where they ran are not moved.
    since, mx, expected = float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
    samples = [s for s in (json.loads(l) for l in open(sys.argv[2])) if "files" in s]
    before = [s for s in samples if s["t"] <= since]
    at = {x["id"]: x for x in (before[-1]["files"] if before else [])}
    active = {i: x["start"] for i, x in at.items() if x["state"] == "ACTIVE"}
    moved = {}; stayed = []
    for fid, start in active.items():
        for s in samples:
            if s["t"] <= since: continue
            x = next(f for f in s["files"] if f["id"] == fid)
            if x["state"] == "ACTIVE" and x["start"] != start:
                moved[fid] = s["t"] - since; break
            if x["state"] == "FINISHED" and x["start"] == start:
                stayed.append(fid); break
    worst = max(moved.values()) if moved else 0
    print(f"ACTIVE at deletion {len(active)}: {len(moved)} moved to another replica, ACTIVE again after "
          + ", ".join(f"{d:.1f}s" for d in sorted(moved.values())) + f"; {len(stayed)} finished where they ran")
    sys.exit(1 if worst > mx or len(moved) < expected else 0)
elif mode == "answers":
    # one thread per URL, each asking again as soon as it has an answer (or after its 5 s timeout: status 0)
    import threading
    out = sys.argv[2]; urls = sys.argv[3:-1]; seconds = float(sys.argv[-1]); token = os.environ.get("TOKEN", "")
    end = time.time() + seconds; lock = threading.Lock(); f = open(out, "a")
    def ask(u):
        while time.time() < end:
            t = time.time(); code, ra, body = get(u, token, timeout=5)
            with lock:
                f.write(json.dumps({"t": t, "took": round(time.time() - t, 2), "url": u, "status": code, "retry_after": ra,
                                    "body": body[:200].decode(errors="replace")}) + "\n"); f.flush()
            time.sleep(0.25)
    threads = [threading.Thread(target=ask, args=(u,)) for u in urls]
    [t.start() for t in threads]; [t.join() for t in threads]
