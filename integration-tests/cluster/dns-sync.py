#!/usr/bin/env python3
"""Cluster DNS stand-in: every 2 s, writes the hosts file dnsmasq serves from the cluster's Services and Endpoints
(name.namespace.svc.cluster.local -> ClusterIP; headless Services -> their endpoints; hostname.name.namespace... for
pods with a hostname, as StatefulSets' are) and sends dnsmasq SIGHUP when it changed.
Usage: dns-sync.py HOSTS_FILE DNSMASQ_PID_FILE"""
import json, os, signal, subprocess, sys, time

hosts_file, pid_file = sys.argv[1], sys.argv[2]
last = None
while True:
    try:
        out = subprocess.run(["kubectl", "get", "services,endpoints", "-A", "-o", "json"], capture_output=True, check=True, timeout=20).stdout
        lines = []
        items = json.loads(out)["items"]
        headless = set()
        for it in items:
            md = it["metadata"]
            name = f'{md["name"]}.{md["namespace"]}.svc.cluster.local'
            if it["kind"] == "Service":
                ip = it["spec"].get("clusterIP")
                if ip and ip != "None":
                    lines.append(f"{ip} {name}")
                else:
                    headless.add(name)
        for it in items:
            if it["kind"] != "Endpoints":
                continue
            md = it["metadata"]
            name = f'{md["name"]}.{md["namespace"]}.svc.cluster.local'
            for subset in it.get("subsets") or []:
                for a in subset.get("addresses") or []:
                    if name in headless:
                        lines.append(f'{a["ip"]} {name}')
                    if a.get("hostname"):
                        lines.append(f'{a["ip"]} {a["hostname"]}.{name}')
        text = "\n".join(sorted(set(lines))) + "\n"
        if text != last:
            with open(hosts_file + ".tmp", "w") as f:
                f.write(text)
            os.replace(hosts_file + ".tmp", hosts_file)
            with open(pid_file) as f:
                os.kill(int(f.read().strip()), signal.SIGHUP)
            last = text
    except Exception as e:  # the apiserver restarting, a timeout: try again
        print("dns-sync:", e, file=sys.stderr, flush=True)
    time.sleep(2)
