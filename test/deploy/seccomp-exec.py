"""Runs a command under a seccomp profile in Docker's JSON format, loaded with libseccomp.

    python3 seccomp-exec.py PROFILE.json -- COMMAND [ARG...]

Used by test/deploy/browser-worker-seccomp.spec.ts (Debian: python3-seccomp). Reads the profile's
default action, rules and argument conditions, loads the filter for this machine's architecture
(libseccomp also sets no_new_privs) and executes COMMAND under it, as Docker or a kubelet would
start the container's process. Names libseccomp does not know are skipped with a note on stderr,
as Docker does.
"""

import json
import os
import sys

import seccomp

OPS = {
    "SCMP_CMP_EQ": seccomp.EQ,
    "SCMP_CMP_NE": seccomp.NE,
    "SCMP_CMP_LT": seccomp.LT,
    "SCMP_CMP_LE": seccomp.LE,
    "SCMP_CMP_GT": seccomp.GT,
    "SCMP_CMP_GE": seccomp.GE,
    "SCMP_CMP_MASKED_EQ": seccomp.MASKED_EQ,
}


def action(name, errno):
    if name == "SCMP_ACT_ALLOW":
        return seccomp.ALLOW
    if name == "SCMP_ACT_ERRNO":
        return seccomp.ERRNO(errno)
    raise ValueError(f"unsupported action {name}")


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: seccomp-exec.py PROFILE.json -- COMMAND [ARG...]")
    with open(sys.argv[1], encoding="utf-8") as file:
        profile = json.load(file)
    command = sys.argv[3:]
    default_errno = profile.get("defaultErrnoRet", 1)
    rules = seccomp.SyscallFilter(defaction=action(profile["defaultAction"], default_errno))
    for rule in profile["syscalls"]:
        args = [
            seccomp.Arg(a["index"], OPS[a["op"]], a["value"], a.get("valueTwo", 0))
            for a in rule.get("args", [])
        ]
        for name in rule["names"]:
            if seccomp.resolve_syscall(seccomp.Arch.NATIVE, name) < 0:
                print(f"seccomp-exec: skipped unknown system call {name}", file=sys.stderr)
                continue
            rules.add_rule(action(rule["action"], rule.get("errnoRet", default_errno)), name, *args)
    rules.load()
    os.execv(command[0], command)


main()
