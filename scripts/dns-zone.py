# A real DNS server for the tests (dnslib, installed by `just setup` into .tools/dnslib): answers
# UDP and TCP on 127.0.0.1 from a zone file in RFC 1035 format, given as the only argument,
# which it reads again for every query, so a test changes its answers by rewriting the file.
# Prints the port it bound (the same for UDP and TCP), then serves until killed. A name with
# no record in the file is NXDOMAIN. Two first lines change its behaviour for every query:
# `; SERVFAIL` answers SERVFAIL, `; SILENT` never answers (a server that times out).
# Used by crates/server/tests/server/routes/custom_domains.rs.
# Run as: PYTHONPATH=.tools/dnslib python3 -S scripts/dns-zone.py ZONE_FILE
import sys, threading, time
from dnslib import QTYPE, RCODE, RR
from dnslib.server import BaseResolver, DNSLogger, DNSServer

zone_file = sys.argv[1]


class Zone(BaseResolver):
    def resolve(self, request, handler):
        with open(zone_file) as f:
            text = f.read()
        reply = request.reply()
        if text.startswith("; SILENT"):
            time.sleep(3600)
        if text.startswith("; SERVFAIL"):
            reply.header.rcode = RCODE.SERVFAIL
            return reply
        qname, qtype = request.q.qname, QTYPE[request.q.qtype]
        found = False
        for rr in RR.fromZone(text):
            if rr.rname == qname:
                found = True
                if QTYPE[rr.rtype] == qtype:
                    reply.add_answer(rr)
        if not found:
            reply.header.rcode = RCODE.NXDOMAIN
        return reply


quiet = DNSLogger(log="-request,-reply,-truncated,-error", prefix=False)
udp = DNSServer(Zone(), address="127.0.0.1", port=0, logger=quiet)
port = udp.server.server_address[1]
tcp = DNSServer(Zone(), address="127.0.0.1", port=port, tcp=True, logger=quiet)
for server in (udp, tcp):
    threading.Thread(target=server.start, daemon=True).start()
print(port, flush=True)
threading.Event().wait()
