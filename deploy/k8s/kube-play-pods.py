#!/usr/bin/env python3
"""Renders pod INDEX of the indexed Job in deploy/k8s/bitina.yaml as a Pod that `podman kube
play` runs (Podman 4.3 plays Pods, Deployments and ConfigMaps, not Jobs or StatefulSets), with
what Kubernetes itself would add to that pod:
  - the pod's name and hostname JOB-INDEX under the Job's subdomain, JOB_COMPLETION_INDEX=INDEX;
  - the Job's labels; the ConfigMap the pod mounts, made from the files named by --from-file
    KEY=PATH, as `kubectl create configmap NAME --from-file=KEY=PATH...` makes it.
What this machine needs instead of a cluster: no published ports (containerPort would be
published on the host), the image (--image), the secret's files from a directory (--secret-dir, a hostPath: Podman 4.3 has no Kubernetes secrets), a prefix for the
names of the pod and its ConfigMap (--prefix, so that runs can share a machine) and environment changes (--env K=V).
The pod's DNS name JOB-INDEX.SUBDOMAIN is not made here: give it to `podman kube play
--network NET:alias=JOB-INDEX.SUBDOMAIN` (deploy/podman-test.sh does).
Usage: kube-play-pods.py MANIFEST INDEX --from-file KEY=PATH... --image IMG --secret-dir DIR [--prefix P] [--env K=V]...
"""
import argparse
import copy
import sys

import yaml


def main():
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("manifest")
    a.add_argument("index", type=int)
    a.add_argument("--from-file", action="append", required=True, metavar="KEY=PATH")
    a.add_argument("--image", required=True)
    a.add_argument("--secret-dir", required=True)
    a.add_argument("--prefix", default="")
    a.add_argument("--env", action="append", default=[])
    args = a.parse_args()
    with open(args.manifest) as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    jobs = [d for d in docs if d.get("kind") == "Job"]
    if len(jobs) != 1:
        sys.exit("kube-play-pods: %s: expected one Job, found %d" % (args.manifest, len(jobs)))
    job = jobs[0]
    spec = job["spec"]
    if spec.get("completionMode") != "Indexed" or not 0 <= args.index < spec["completions"]:
        sys.exit("kube-play-pods: the Job must be Indexed with index %d below its %s completions"
                 % (args.index, spec.get("completions")))
    template = copy.deepcopy(spec["template"])
    pod_spec = template["spec"]
    name = "%s-%d" % (job["metadata"]["name"], args.index)
    pod_spec["hostname"] = name
    extra = dict(e.split("=", 1) for e in args.env)
    extra["JOB_COMPLETION_INDEX"] = str(args.index)
    configmaps = []
    for c in pod_spec["containers"]:
        c["image"] = args.image
        c["imagePullPolicy"] = "Never"
        # Kubernetes only documents a containerPort; podman kube play would publish it on the
        # host: the pods talk on their network alone
        c.pop("ports", None)
        env = [e for e in c.get("env", []) if e["name"] not in extra]
        c["env"] = env + [{"name": k, "value": v} for k, v in extra.items()]
    for v in pod_spec.get("volumes", []):
        if "secret" in v:
            del v["secret"]
            v["hostPath"] = {"path": args.secret_dir, "type": "Directory"}
        elif "configMap" in v:
            # Podman keeps a ConfigMap as a volume of that name: prefixed, as the pod is
            v["configMap"]["name"] = args.prefix + v["configMap"]["name"]
            configmaps.append(v["configMap"]["name"])
    labels = dict(template.get("metadata", {}).get("labels", {}))
    labels.update({"job-name": job["metadata"]["name"],
                   "batch.kubernetes.io/job-completion-index": str(args.index)})
    out = []
    data = {}
    for kv in args.from_file:
        key, path = kv.split("=", 1)
        with open(path) as f:
            data[key] = f.read()
    for cm in configmaps:
        out.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": cm}, "data": data})
    out.append({"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": args.prefix + name, "labels": labels},
                "spec": pod_spec})
    yaml.safe_dump_all(out, sys.stdout, sort_keys=False)


if __name__ == "__main__":
    main()
