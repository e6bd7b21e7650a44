#!/usr/bin/env python3
"""Interop check: a real NetBox client (pynetbox, as Debian packages it) against this server.

Environment:
  PLATFORM_URL        base URL of the server (the client appends /api/)
  PLATFORM_TOKEN      a platform API token (Authorization: Token <key>)
  PLATFORM_USERNAME,  optional: the token owner's credentials, for pynetbox's create_token()
  PLATFORM_PASSWORD
  INTEROP_KEEP_GOING  "1": run every check and report each failure (default: stop at the first)
  INTEROP_RESULTS     optional file to write {"passed": n, "failed": n, "total": n} to

Prints one line per check ("ok N - …" / "FAIL N - …") and a summary line; exits 1 on failure.
Everything is done through pynetbox's public API, the way a NetBox user's script does it, and every
check asserts the values read back from the server. Objects are named with a random run prefix, so
the check can run against a server that already holds data.
"""

import json
import os
import secrets
import sys
import traceback
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pynetbox
from pynetbox.core.query import ContentError
from pynetbox.core.response import Record
from pynetbox.models.circuits import CircuitTerminations
from pynetbox.models.dcim import Cables, Devices, DeviceTypes, RearPorts

URL = os.environ.get("PLATFORM_URL", "").rstrip("/")
TOKEN = os.environ.get("PLATFORM_TOKEN", "")
USERNAME = os.environ.get("PLATFORM_USERNAME", "")
PASSWORD = os.environ.get("PLATFORM_PASSWORD", "")
KEEP_GOING = os.environ.get("INTEROP_KEEP_GOING", "") not in ("", "0", "false", "no")
RESULTS = os.environ.get("INTEROP_RESULTS", "")

P = "interop-" + secrets.token_hex(3)  # run prefix: every object this run creates starts with it
PAGE_SITES = 120  # more than NetBox's default page size of 50: three pages when read 50 at a time


class CheckFailed(Exception):
    pass


def expect(actual, expected, what):
    if actual != expected:
        raise CheckFailed(f"{what}: expected {expected!r}, got {actual!r}")


def expect_true(condition, what):
    if not condition:
        raise CheckFailed(what)


def ident(value):
    """The id of a nested object as pynetbox holds it (a Record, a dict or a bare id)."""
    if isinstance(value, Record):
        return value.id
    if isinstance(value, dict):
        return value.get("id")
    return value


def choice_value(value):
    """A NetBox choice field reads {"value", "label"}; pynetbox makes it a Record."""
    if isinstance(value, Record):
        return value.value
    if isinstance(value, dict):
        return value.get("value")
    return value


def names(records):
    return [r.name for r in records]


def describe_request_error(error):
    request = error.req.request
    body = request.body
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    text = error.req.text
    if len(text) > 1500:
        text = text[:1500] + "…"
    return (
        f"{request.method} {request.url}"
        + (f" with body {body}" if body else "")
        + f" answered {error.req.status_code} {error.req.reason}: {text}"
    )


class Recording:
    """Records the query parameters of each request a client makes (to see pynetbox's paging)."""

    def __init__(self, client):
        self.session = client.http_session
        self.calls = []

    def hook(self, response, *args, **kwargs):
        self.calls.append(parse_qs(urlsplit(response.request.url).query))

    def __enter__(self):
        self.session.hooks["response"].append(self.hook)
        return self.calls

    def __exit__(self, *exc):
        self.session.hooks["response"].remove(self.hook)
        return False


class Shared(SimpleNamespace):
    """Objects shared between checks; a missing one means an earlier check failed to make it."""

    def __getattr__(self, name):
        raise CheckFailed(f"needs s.{name}, which an earlier failing check should have created")


class Runner:
    """Checks are registered in order, then run; by default the first failure stops the run."""

    def __init__(self):
        self.checks = []
        self.passed = 0
        self.failed = 0
        self.first_failure = None

    def add(self, name, function):
        self.checks.append((name, function))

    def run_all(self):
        for number, (name, function) in enumerate(self.checks, start=1):
            if not self.run(number, name, function) and not KEEP_GOING:
                not_run = len(self.checks) - number
                if not_run:
                    print(f"pynetbox interop: stopped at the first failure; {not_run} checks not run (INTEROP_KEEP_GOING=1 runs them)")
                break
        self.finish()

    def run(self, number, name, function):
        try:
            function()
        except Exception as error:  # every failure is reported, whatever raised it
            self.failed += 1
            if isinstance(error, CheckFailed):
                message = str(error)
            elif isinstance(error, pynetbox.RequestError):
                message = describe_request_error(error)
            elif isinstance(error, ContentError):
                message = f"{error} ({error.req.request.method} {error.req.url} answered {error.req.status_code}: {error.req.text[:500]})"
            else:
                frame = traceback.extract_tb(error.__traceback__)[-1]
                message = f"{type(error).__name__}: {error} (at {os.path.basename(frame.filename)}:{frame.lineno})"
            print(f"FAIL {number} - {name}: {message}", flush=True)
            if self.first_failure is None:
                self.first_failure = f"{number} - {name}: {message}"
            return False
        self.passed += 1
        print(f"ok {number} - {name}", flush=True)
        return True

    def finish(self):
        print(f"pynetbox interop: {self.passed} passed, {self.failed} failed", flush=True)
        if RESULTS:
            with open(RESULTS, "w", encoding="utf-8") as results:
                json.dump({"passed": self.passed, "failed": self.failed, "total": len(self.checks)}, results)
        if self.failed:
            print(f"pynetbox interop: first failure: {self.first_failure}", flush=True)
            sys.exit(1)
        sys.exit(0)


def main():
    if not URL or not TOKEN:
        print("pynetbox_check.py: set PLATFORM_URL and PLATFORM_TOKEN", file=sys.stderr)
        sys.exit(2)
    print(f"pynetbox {pynetbox.__version__} against {URL} (run prefix {P})", flush=True)
    nb = pynetbox.api(URL, token=TOKEN)
    s = Shared()  # objects shared between checks
    runner = Runner()
    check = runner.add

    # ------------------------------------------------------------------ sites
    def create_tenant():
        s.tenant = nb.tenancy.tenants.create(name=f"{P}-tenant", slug=f"{P}-tenant")
        expect(s.tenant.name, f"{P}-tenant", "tenant name")

    check("tenancy.tenants.create (for site relations)", create_tenant)

    def create_site():
        s.site_a = nb.dcim.sites.create(
            name=f"{P}-site-a",
            slug=f"{P}-site-a",
            status="planned",
            facility="Hall 1",
            time_zone="Europe/Amsterdam",
            latitude=52.370216,
            longitude=4.895168,
            description="first site",
        )
        site = s.site_a
        expect_true(isinstance(site.id, int) and site.id > 0, f"site id is a positive integer, got {site.id!r}")
        expect(site.name, f"{P}-site-a", "name")
        expect(site.slug, f"{P}-site-a", "slug")
        expect(choice_value(site.status), "planned", "status.value")
        expect(site.status.label, "Planned", "status.label")
        expect(site.facility, "Hall 1", "facility")
        expect(site.time_zone, "Europe/Amsterdam", "time_zone")
        expect(round(float(site.latitude), 6), 52.370216, "latitude")
        expect(round(float(site.longitude), 6), 4.895168, "longitude")
        expect(site.url, f"{URL}/api/dcim/sites/{site.id}/", "url")
        expect(site.tenant, None, "tenant")

    check("dcim.sites.create returns the new site with its values", create_site)

    def get_site_by_name():
        site = nb.dcim.sites.get(name=f"{P}-site-a")
        expect_true(site is not None, "get(name=…) found nothing")
        expect(site.id, s.site_a.id, "id of the site found by name")
        expect(site.description, "first site", "description")
        by_slug = nb.dcim.sites.get(slug=f"{P}-site-a")
        expect(ident(by_slug), s.site_a.id, "id of the site found by slug")
        expect(nb.dcim.sites.get(name=f"{P}-no-such-site"), None, "get(name=<unknown>)")

    check("dcim.sites.get(name=…) and get(slug=…)", get_site_by_name)

    def get_site_by_id():
        site = nb.dcim.sites.get(s.site_a.id)
        expect_true(site is not None, "get(id) found nothing")
        expect(site.name, f"{P}-site-a", "name")
        expect(choice_value(site.status), "planned", "status")
        expect(nb.dcim.sites.get(2_000_000_000), None, "get(<unknown id>) (a 404 becomes None)")

    check("dcim.sites.get(id), and None for an unknown id", get_site_by_id)

    def bulk_create_sites():
        created = nb.dcim.sites.create(
            [
                {"name": f"{P}-site-b", "slug": f"{P}-site-b", "status": "active", "facility": "Hall 2"},
                {"name": f"{P}-site-c", "slug": f"{P}-site-c", "status": "retired"},
            ]
        )
        expect_true(isinstance(created, list), f"bulk create answers a list, got {type(created).__name__}")
        expect(sorted(names(created)), [f"{P}-site-b", f"{P}-site-c"], "names of the created sites")
        s.site_b, s.site_c = sorted(created, key=lambda r: r.name)
        expect(choice_value(s.site_c.status), "retired", "status of site c")

    check("dcim.sites.create([…]) (bulk create)", bulk_create_sites)

    def filter_sites():
        planned = list(nb.dcim.sites.filter(q=P, status="planned"))
        expect(names(planned), [f"{P}-site-a"], "filter(q=prefix, status='planned')")
        several = list(nb.dcim.sites.filter(q=P, status=["planned", "retired"]))
        expect(sorted(names(several)), [f"{P}-site-a", f"{P}-site-c"], "filter(status=[planned, retired])")
        by_q = list(nb.dcim.sites.filter(f"{P}-site-b"))
        expect(names(by_q), [f"{P}-site-b"], "filter('<name>') (the q search)")
        expect(nb.dcim.sites.count(q=P), 3, "count(q=prefix)")
        brief = list(nb.dcim.sites.filter(q=P, brief=True))
        expect(len(brief), 3, "filter(brief=True) result count")
        keys = set(dict(brief[0]))
        expect_true({"id", "url", "display", "name", "slug"} <= keys, f"brief sites carry id/url/display/name/slug, got {sorted(keys)}")
        expect_true("facility" not in keys, f"brief=True answers the brief representation, got {sorted(keys)}")

    check("dcim.sites.filter by status (one and several), q, count, brief", filter_sites)

    def save_site():
        site = nb.dcim.sites.get(s.site_a.id)
        site.description = "saved with .save()"
        site.status = "active"
        site.tenant = s.tenant.id
        expect(site.updates(), {"description": "saved with .save()", "status": "active", "tenant": s.tenant.id}, "pynetbox's diff")
        expect(site.save(), True, "save()")
        again = nb.dcim.sites.get(s.site_a.id)
        expect(again.description, "saved with .save()", "description after save")
        expect(choice_value(again.status), "active", "status after save")
        expect(ident(again.tenant), s.tenant.id, "tenant after save")
        expect(again.tenant.name, f"{P}-tenant", "tenant name (nested)")
        expect(again.facility, "Hall 1", "facility (not sent, must be unchanged)")
        again.tenant = None
        expect(again.save(), True, "save() clearing the tenant")
        expect(nb.dcim.sites.get(s.site_a.id).tenant, None, "tenant after clearing")

    check("Record.save() sends the changed fields (PATCH) and they read back", save_site)

    def update_site():
        site = nb.dcim.sites.get(s.site_b.id)
        expect(site.update({"facility": "Hall 9", "description": "updated with .update()"}), True, "update({…})")
        again = nb.dcim.sites.get(s.site_b.id)
        expect(again.facility, "Hall 9", "facility after update")
        expect(again.description, "updated with .update()", "description after update")
        expect(choice_value(again.status), "active", "status (not sent, must be unchanged)")

    check("Record.update({...})", update_site)

    def paginate_sites():
        batch = [
            {"name": f"{P}-page-{i:03d}", "slug": f"{P}-page-{i:03d}", "status": "active"} for i in range(PAGE_SITES)
        ]
        created = nb.dcim.sites.create(batch)
        expect(len(created), PAGE_SITES, "sites created in one bulk request")
        s.page_names = [b["name"] for b in batch]
        # Without a limit pynetbox asks for ?limit=0 (NetBox: the maximum page size) and follows `next`.
        with Recording(nb) as calls:
            listed = list(nb.dcim.sites.filter(q=f"{P}-page"))
        expect(names(listed), s.page_names, "names, in NetBox's ordering by name, without repeats")
        expect_true(calls and calls[0].get("limit") == ["0"], f"pynetbox's first list request carries limit=0: {calls}")
        recordset = nb.dcim.sites.filter(q=f"{P}-page")
        expect(len(recordset), PAGE_SITES, "len() of a RecordSet (the count field)")
        everything = [r.id for r in nb.dcim.sites.all()]
        expect(len(everything), len(set(everything)), "all() yields every site once")
        expect_true({r.id for r in listed} <= set(everything) and s.site_a.id in everything, "all() yields every site")
        expect(len(nb.dcim.sites.all()), len(everything), "len(all()) (the count field)")

    check(f"list of {PAGE_SITES} sites (bulk-created), all() and len()", paginate_sites)

    def paginate_sites_pages():
        # limit=50: page 1 (limit=50), page 2 (limit=50&offset=50, built by pynetbox), page 3 from the
        # answer's absolute `next` link.
        with Recording(nb) as calls:
            listed = list(nb.dcim.sites.filter(q=f"{P}-page", limit=50))
        expect(names(listed), s.page_names, "names read 50 at a time")
        expect([c.get("offset", ["0"])[0] for c in calls], ["0", "50", "100"], "offsets of the page requests")
        window = list(nb.dcim.sites.filter(q=f"{P}-page", limit=10, offset=20))
        expect(names(window), s.page_names[20:30], "filter(limit=10, offset=20) (one page only)")

    check("pagination over pages of 50: offset, then the `next` link; one page with limit/offset", paginate_sites_pages)

    def paginate_sites_threaded():
        threaded = pynetbox.api(URL, token=TOKEN, threading=True)
        with Recording(threaded) as calls:
            listed = list(threaded.dcim.sites.filter(q=f"{P}-page", limit=50))
        expect(sorted(names(listed)), s.page_names, "names fetched by the threaded client")
        expect(sorted(c.get("offset", ["0"])[0] for c in calls), ["0", "100", "50"], "offsets fetched (concurrently)")

    check("pagination with threading=True: pages fetched concurrently by offset", paginate_sites_threaded)

    def bulk_update_sites():
        result = nb.dcim.sites.filter(q=f"{P}-page").update(status="planned")
        expect_true(isinstance(result, list) and len(result) == PAGE_SITES, f"RecordSet.update answers the {PAGE_SITES} sites")
        expect(nb.dcim.sites.count(q=f"{P}-page", status="planned"), PAGE_SITES, "sites planned after RecordSet.update")
        some = list(nb.dcim.sites.filter(q=f"{P}-page", limit=3, offset=0))
        nb.dcim.sites.update([{"id": r.id, "description": "bulk"} for r in some])
        expect(
            [r.description for r in nb.dcim.sites.filter(id=[r.id for r in some])], ["bulk"] * 3, "descriptions after bulk update"
        )

    check("bulk update: RecordSet.update(status=…) and Endpoint.update([{id, …}])", bulk_update_sites)

    def bulk_delete_sites():
        some = list(nb.dcim.sites.filter(q=f"{P}-page", limit=5, offset=0))
        expect(nb.dcim.sites.delete([r.id for r in some]), True, "delete([ids])")
        expect(nb.dcim.sites.count(q=f"{P}-page"), PAGE_SITES - 5, "sites left after deleting 5 by id")
        expect(nb.dcim.sites.filter(q=f"{P}-page").delete(), True, "RecordSet.delete()")
        expect(nb.dcim.sites.count(q=f"{P}-page"), 0, "sites left after RecordSet.delete()")

    check("bulk delete: Endpoint.delete([ids]) and RecordSet.delete()", bulk_delete_sites)

    def delete_site():
        site = nb.dcim.sites.get(s.site_c.id)
        expect(site.delete(), True, "delete()")
        expect(nb.dcim.sites.get(s.site_c.id), None, "get() after delete")
        expect(sorted(names(nb.dcim.sites.filter(q=P))), [f"{P}-site-a", f"{P}-site-b"], "sites left")

    check("Record.delete() of a site", delete_site)

    # ------------------------------------------------------------------ device prerequisites
    def create_manufacturer_and_role():
        s.manufacturer = nb.dcim.manufacturers.create(name=f"{P}-maker", slug=f"{P}-maker")
        expect(s.manufacturer.name, f"{P}-maker", "manufacturer name")
        expect(ident(nb.dcim.manufacturers.get(slug=f"{P}-maker")), s.manufacturer.id, "manufacturer found by slug")
        s.role = nb.dcim.device_roles.create(name=f"{P}-role", slug=f"{P}-role", color="00ff00")
        expect(s.role.color, "00ff00", "device role color")
        expect(ident(nb.dcim.device_roles.get(name=f"{P}-role")), s.role.id, "device role found by name")

    check("dcim.manufacturers / dcim.device_roles create and get", create_manufacturer_and_role)

    def create_device_type():
        s.device_type = nb.dcim.device_types.create(
            manufacturer=s.manufacturer.id, model=f"{P}-panel", slug=f"{P}-panel", part_number="PP-24", u_height=1
        )
        dt = s.device_type
        expect_true(isinstance(dt, DeviceTypes), f"a DeviceTypes record, got {type(dt).__name__}")
        expect(str(dt), f"{P}-panel", "str(device type) (its model)")
        expect(ident(dt.manufacturer), s.manufacturer.id, "manufacturer id")
        expect(dt.manufacturer.name, f"{P}-maker", "manufacturer name (nested)")
        expect(dt.part_number, "PP-24", "part_number")
        expect(float(dt.u_height), 1.0, "u_height")

    check("dcim.device_types.create", create_device_type)

    def create_port_templates():
        dt = s.device_type.id
        s.rear_template_1 = nb.dcim.rear_port_templates.create(device_type=dt, name="rear1", type="mpo", positions=2)
        s.rear_template_2 = nb.dcim.rear_port_templates.create(device_type=dt, name="rear2", type="lc", positions=1)
        expect(s.rear_template_1.positions, 2, "rear1 positions")
        expect(choice_value(s.rear_template_1.type), "mpo", "rear1 type")
        expect(ident(s.rear_template_1.device_type), dt, "rear1 device_type")
        listed = list(nb.dcim.rear_port_templates.filter(device_type_id=dt))
        expect(names(listed), ["rear1", "rear2"], "rear port templates of the device type")

    check("dcim.rear_port_templates.create and filter(device_type_id=…)", create_port_templates)

    def create_front_port_templates():
        # NetBox 4.5 (advanced port mappings): a front port template names its rear-port positions in
        # `rear_ports`: [{"position", "rear_port", "rear_port_position"}].
        dt = s.device_type.id
        wanted = [
            ("front1", s.rear_template_1.id, 1),
            ("front2", s.rear_template_1.id, 2),
            ("front3", s.rear_template_2.id, 1),
        ]
        s.front_templates = []
        for name, rear, position in wanted:
            template = nb.dcim.front_port_templates.create(
                device_type=dt,
                name=name,
                type="lc",
                positions=1,
                rear_ports=[{"position": 1, "rear_port": rear, "rear_port_position": position}],
            )
            s.front_templates.append(template)
        listed = list(nb.dcim.front_port_templates.filter(device_type_id=dt))
        expect(names(listed), ["front1", "front2", "front3"], "front port templates of the device type")

    check("dcim.front_port_templates.create", create_front_port_templates)

    def front_port_template_mappings():
        for template, (rear, position) in zip(
            s.front_templates, [(s.rear_template_1.id, 1), (s.rear_template_1.id, 2), (s.rear_template_2.id, 1)]
        ):
            again = nb.dcim.front_port_templates.get(template.id)
            mappings = [dict(m) if isinstance(m, Record) else m for m in (getattr(again, "rear_ports", None) or [])]
            expect(
                [(m.get("position"), ident(m.get("rear_port")), m.get("rear_port_position")) for m in mappings],
                [(1, rear, position)],
                f"rear_ports of front port template {template.name} (NetBox 4.5 mapping field)",
            )

    check("front port templates read back their rear-port mapping (rear_ports)", front_port_template_mappings)

    # ------------------------------------------------------------------ devices
    def create_device():
        s.device_a = nb.dcim.devices.create(
            name=f"{P}-dev-a",
            device_type=s.device_type.id,
            role=s.role.id,
            site=s.site_a.id,
            status="planned",
            serial="SN-A",
        )
        dev = s.device_a
        expect_true(isinstance(dev, Devices), f"a Devices record, got {type(dev).__name__}")
        expect(dev.name, f"{P}-dev-a", "name")
        expect(ident(dev.device_type), s.device_type.id, "device_type id")
        expect(str(dev.device_type), f"{P}-panel", "device_type model")
        expect(ident(dev.role), s.role.id, "role id")
        expect(dev.role.name, f"{P}-role", "role name")
        expect(ident(dev.site), s.site_a.id, "site id")
        expect(dev.site.name, f"{P}-site-a", "site name")
        expect(choice_value(dev.status), "planned", "status")
        expect(dev.serial, "SN-A", "serial")
        expect(dev.url, f"{URL}/api/dcim/devices/{dev.id}/", "url")

    check("dcim.devices.create", create_device)

    def nested_objects_of_nested_objects():
        dev = nb.dcim.devices.get(s.device_a.id)
        manufacturer = dev.device_type.manufacturer
        expect(ident(manufacturer), s.manufacturer.id, "device.device_type.manufacturer id")
        expect(manufacturer.display, f"{P}-maker", "device.device_type.manufacturer.display")

    check("a device's device_type carries its manufacturer (id and display)", nested_objects_of_nested_objects)

    def lazy_nested_details():
        dev = nb.dcim.devices.get(s.device_a.id)
        # facility is not in a nested site: pynetbox fetches the site from its `url`.
        expect(dev.site.facility, "Hall 1", "device.site.facility (fetched through the nested url)")

    check("nested records load their full object from their url", lazy_nested_details)

    def instantiated_ports():
        dev = s.device_a.id
        fronts = list(nb.dcim.front_ports.filter(device_id=dev))
        expect(names(fronts), ["front1", "front2", "front3"], "front ports of the new device")
        for port in fronts:
            expect(ident(port.device), dev, f"{port.name}.device")
            expect(choice_value(port.type), "lc", f"{port.name}.type")
            expect(port.cable, None, f"{port.name}.cable")
        rears = list(nb.dcim.rear_ports.filter(device_id=dev))
        expect(names(rears), ["rear1", "rear2"], "rear ports of the new device")
        expect([r.positions for r in rears], [2, 1], "rear port positions")
        expect_true(all(isinstance(r, RearPorts) for r in rears), "rear ports are RearPorts records")
        expect(len(nb.dcim.front_ports.filter(device_id=dev)), 3, "len() of the front-port RecordSet")

    check("the device's instantiated ports: front_ports / rear_ports.filter(device_id=…)", instantiated_ports)

    def instantiated_port_mappings():
        rears = {r.name: r.id for r in nb.dcim.rear_ports.filter(device_id=s.device_a.id)}
        expected = {"front1": (rears.get("rear1"), 1), "front2": (rears.get("rear1"), 2), "front3": (rears.get("rear2"), 1)}
        for port in nb.dcim.front_ports.filter(device_id=s.device_a.id):
            mappings = [dict(m) if isinstance(m, Record) else m for m in (getattr(port, "rear_ports", None) or [])]
            rear, position = expected[port.name]
            expect(
                [(m.get("position"), ident(m.get("rear_port")), m.get("rear_port_position")) for m in mappings],
                [(1, rear, position)],
                f"rear_ports of front port {port.name}",
            )

    check("instantiated front ports read back their rear-port mapping (rear_ports)", instantiated_port_mappings)

    def get_and_filter_devices():
        s.device_b = nb.dcim.devices.create(
            name=f"{P}-dev-b", device_type=s.device_type.id, role=s.role.id, site=s.site_a.id
        )
        expect(choice_value(s.device_b.status), "active", "default status")
        found = nb.dcim.devices.get(name=f"{P}-dev-a")
        expect(ident(found), s.device_a.id, "get(name=…)")
        in_site = list(nb.dcim.devices.filter(site_id=s.site_a.id))
        expect(sorted(names(in_site)), [f"{P}-dev-a", f"{P}-dev-b"], "filter(site_id=…)")
        by_role = list(nb.dcim.devices.filter(role_id=s.role.id, status="planned"))
        expect(names(by_role), [f"{P}-dev-a"], "filter(role_id=…, status='planned')")

    check("dcim.devices.get(name=…) and filter(site_id / role_id / status)", get_and_filter_devices)

    def save_device():
        dev = nb.dcim.devices.get(s.device_a.id)
        dev.serial = "SN-A2"
        dev.status = "active"
        expect(dev.save(), True, "save()")
        again = nb.dcim.devices.get(s.device_a.id)
        expect(again.serial, "SN-A2", "serial after save")
        expect(choice_value(again.status), "active", "status after save")
        expect(ident(again.device_type), s.device_type.id, "device_type (unchanged)")

    check("device Record.save()", save_device)

    def update_device():
        dev = nb.dcim.devices.get(s.device_b.id)
        expect(dev.update({"description": "moved", "site": s.site_b.id, "asset_tag": f"{P}-asset"}), True, "update({…})")
        again = nb.dcim.devices.get(s.device_b.id)
        expect(again.description, "moved", "description after update")
        expect(ident(again.site), s.site_b.id, "site after update")
        expect(again.asset_tag, f"{P}-asset", "asset_tag after update")
        expect(again.update({"site": s.site_a.id}), True, "moving it back")
        expect(ident(nb.dcim.devices.get(s.device_b.id).site), s.site_a.id, "site after moving back")

    check("device Record.update({...}) including a relation", update_device)

    def delete_device():
        dev = nb.dcim.devices.create(name=f"{P}-dev-tmp", device_type=s.device_type.id, role=s.role.id, site=s.site_a.id)
        expect(len(list(nb.dcim.front_ports.filter(device_id=dev.id))), 3, "front ports of the temporary device")
        expect(dev.delete(), True, "delete()")
        expect(nb.dcim.devices.get(dev.id), None, "get() after delete")
        expect(list(nb.dcim.front_ports.filter(device_id=dev.id)), [], "its front ports are gone")
        expect(list(nb.dcim.rear_ports.filter(device_id=dev.id)), [], "its rear ports are gone")

    check("device Record.delete() removes its ports", delete_device)

    # ------------------------------------------------------------------ cables
    def prepare_cable_ends():
        s.device_c = nb.dcim.devices.create(
            name=f"{P}-dev-c", device_type=s.device_type.id, role=s.role.id, site=s.site_a.id
        )
        s.rear = {}
        for label, device in (("a", s.device_a), ("b", s.device_b), ("c", s.device_c)):
            for port in nb.dcim.rear_ports.filter(device_id=device.id):
                s.rear[f"{label}.{port.name}"] = port
        expect(sorted(s.rear), ["a.rear1", "a.rear2", "b.rear1", "b.rear2", "c.rear1", "c.rear2"], "rear ports to cable")

    check("three devices' rear ports to cable", prepare_cable_ends)

    def rear_end(key):
        return [{"object_type": "dcim.rearport", "object_id": s.rear[key].id}]

    def create_cable():
        s.cable = nb.dcim.cables.create(
            a_terminations=rear_end("a.rear1"),
            b_terminations=rear_end("b.rear1"),
            status="planned",
            type="smf",
            label=f"{P}-cable-1",
            color="ffff00",
            length=12.5,
            length_unit="m",
        )
        cable = s.cable
        expect_true(isinstance(cable, Cables), f"a Cables record, got {type(cable).__name__}")
        expect(cable.label, f"{P}-cable-1", "label")
        expect(choice_value(cable.status), "planned", "status")
        expect(choice_value(cable.type), "smf", "type")
        expect(cable.color, "ffff00", "color")
        expect(float(cable.length), 12.5, "length")
        expect(choice_value(cable.length_unit), "m", "length_unit")
        for end, key in (("a_terminations", "a.rear1"), ("b_terminations", "b.rear1")):
            terminations = getattr(cable, end)
            expect(len(terminations), 1, f"{end} length")
            expect_true(
                isinstance(terminations[0], RearPorts),
                f"{end}[0] becomes a RearPorts record (needs object_type and object), got {terminations[0]!r}",
            )
            expect(terminations[0].id, s.rear[key].id, f"{end}[0].id")

    check("dcim.cables.create with a_terminations / b_terminations", create_cable)

    def read_cable():
        cable = nb.dcim.cables.get(s.cable.id)
        expect(str(cable), "rear1 <> rear1", "str(cable) (pynetbox names the two ends)")
        expect([t.id for t in cable.a_terminations], [s.rear["a.rear1"].id], "a_terminations ids")
        expect([t.id for t in cable.b_terminations], [s.rear["b.rear1"].id], "b_terminations ids")
        expect(ident(cable.a_terminations[0].device), s.device_a.id, "a end's device id")
        expect(cable.a_terminations[0].device.display, f"{P}-dev-a", "a end's device display")
        port_a = nb.dcim.rear_ports.get(s.rear["a.rear1"].id)
        expect(ident(port_a.cable), s.cable.id, "a.rear1.cable")
        expect(port_a.cable_end, "A", "a.rear1.cable_end")
        port_b = nb.dcim.rear_ports.get(s.rear["b.rear1"].id)
        expect(ident(port_b.cable), s.cable.id, "b.rear1.cable")
        expect(port_b.cable_end, "B", "b.rear1.cable_end")

    check("cable read back: its ends, and the ports' cable / cable_end", read_cable)

    def filter_cables():
        s.cable_2 = nb.dcim.cables.create(
            a_terminations=rear_end("b.rear2"), b_terminations=rear_end("c.rear1"), label=f"{P}-cable-2"
        )
        expect(choice_value(s.cable_2.status), "connected", "default status")
        expect(names_of_cables(nb.dcim.cables.filter(device_id=s.device_a.id)), [f"{P}-cable-1"], "filter(device_id=a)")
        expect(names_of_cables(nb.dcim.cables.filter(device_id=s.device_c.id)), [f"{P}-cable-2"], "filter(device_id=c)")
        expect(
            names_of_cables(nb.dcim.cables.filter(device_id=s.device_b.id)),
            [f"{P}-cable-1", f"{P}-cable-2"],
            "filter(device_id=b)",
        )
        expect(names_of_cables(nb.dcim.cables.filter(q=P, status="planned")), [f"{P}-cable-1"], "filter(q, status)")
        expect(ident(nb.dcim.cables.get(label=f"{P}-cable-2")), s.cable_2.id, "get(label=…)")

    def names_of_cables(records):
        return sorted(r.label for r in records)

    check("dcim.cables.filter(device_id=…, status=…, q=…) and get(label=…)", filter_cables)

    def save_cable():
        cable = nb.dcim.cables.get(s.cable.id)
        cable.label = f"{P}-cable-1-renamed"
        cable.status = "connected"
        expect(cable.updates(), {"label": f"{P}-cable-1-renamed", "status": "connected"}, "pynetbox's diff")
        expect(cable.save(), True, "save()")
        again = nb.dcim.cables.get(s.cable.id)
        expect(again.label, f"{P}-cable-1-renamed", "label after save")
        expect(choice_value(again.status), "connected", "status after save")
        expect([t.id for t in again.a_terminations], [s.rear["a.rear1"].id], "a end unchanged")
        expect([t.id for t in again.b_terminations], [s.rear["b.rear1"].id], "b end unchanged")

    check("cable Record.save() of label and status keeps its ends", save_cable)

    def update_cable():
        cable = nb.dcim.cables.get(s.cable.id)
        expect(cable.update({"color": "00ffff", "length": 20, "description": "trunk"}), True, "update({…})")
        again = nb.dcim.cables.get(s.cable.id)
        expect(again.color, "00ffff", "color after update")
        expect(float(again.length), 20.0, "length after update")
        expect(again.description, "trunk", "description after update")

    check("cable Record.update({...})", update_cable)

    def reterminate_cable():
        cable = nb.dcim.cables.get(s.cable.id)
        expect(cable.update({"b_terminations": rear_end("c.rear2")}), True, "update({'b_terminations': […]})")
        again = nb.dcim.cables.get(s.cable.id)
        expect([t.id for t in again.b_terminations], [s.rear["c.rear2"].id], "b end after update")
        expect([t.id for t in again.a_terminations], [s.rear["a.rear1"].id], "a end unchanged")
        expect(nb.dcim.rear_ports.get(s.rear["b.rear1"].id).cable, None, "the old b port is free")
        moved = nb.dcim.rear_ports.get(s.rear["c.rear2"].id)
        expect(ident(moved.cable), s.cable.id, "the new b port's cable")
        expect(moved.cable_end, "B", "the new b port's cable_end")

    check("cable update of b_terminations moves the end", reterminate_cable)

    def delete_cables():
        expect(nb.dcim.cables.get(s.cable_2.id).delete(), True, "delete() of cable 2")
        expect(nb.dcim.cables.get(s.cable_2.id), None, "get() after delete")
        expect(nb.dcim.rear_ports.get(s.rear["c.rear1"].id).cable, None, "c.rear1 is free")
        expect(s.cable.delete(), True, "delete() of cable 1")
        expect(nb.dcim.cables.get(s.cable.id), None, "get() after delete")
        for key in ("a.rear1", "c.rear2", "b.rear2"):
            expect(nb.dcim.rear_ports.get(s.rear[key].id).cable, None, f"{key} is free")
        expect(list(nb.dcim.cables.filter(q=P)), [], "no cable of this run left")

    check("cable Record.delete() frees the ports", delete_cables)

    # ------------------------------------------------------------------ circuits
    def create_provider_and_type():
        s.provider = nb.circuits.providers.create(name=f"{P}-carrier", slug=f"{P}-carrier")
        expect(s.provider.name, f"{P}-carrier", "provider name")
        s.circuit_type = nb.circuits.circuit_types.create(name=f"{P}-transit", slug=f"{P}-transit")
        expect(s.circuit_type.slug, f"{P}-transit", "circuit type slug")
        expect(ident(nb.circuits.providers.get(slug=f"{P}-carrier")), s.provider.id, "provider found by slug")
        expect(ident(nb.circuits.circuit_types.get(name=f"{P}-transit")), s.circuit_type.id, "circuit type by name")

    check("circuits.providers / circuits.circuit_types create and get", create_provider_and_type)

    def create_circuit():
        s.circuit = nb.circuits.circuits.create(
            cid=f"{P}-cid-1",
            provider=s.provider.id,
            type=s.circuit_type.id,
            status="planned",
            commit_rate=10000,
            install_date="2024-01-15",
            description="first circuit",
        )
        c = s.circuit
        expect(str(c), f"{P}-cid-1", "str(circuit) (its cid)")
        expect(ident(c.provider), s.provider.id, "provider id")
        expect(c.provider.name, f"{P}-carrier", "provider name")
        expect(ident(c.type), s.circuit_type.id, "type id")
        expect(choice_value(c.status), "planned", "status")
        expect(c.commit_rate, 10000, "commit_rate")
        expect(c.install_date, "2024-01-15", "install_date")
        s.circuit_2 = nb.circuits.circuits.create(cid=f"{P}-cid-2", provider=s.provider.id, type=s.circuit_type.id)
        expect(choice_value(s.circuit_2.status), "active", "default status")

    check("circuits.circuits.create", create_circuit)

    def get_and_filter_circuits():
        expect(ident(nb.circuits.circuits.get(cid=f"{P}-cid-1")), s.circuit.id, "get(cid=…)")
        expect(nb.circuits.circuits.get(s.circuit.id).description, "first circuit", "get(id)")
        listed = [c.cid for c in nb.circuits.circuits.filter(provider_id=s.provider.id)]
        expect(sorted(listed), [f"{P}-cid-1", f"{P}-cid-2"], "filter(provider_id=…)")
        planned = [c.cid for c in nb.circuits.circuits.filter(q=P, status="planned")]
        expect(planned, [f"{P}-cid-1"], "filter(q=…, status='planned')")

    check("circuits.circuits.get(cid=…) and filter(provider_id / status / q)", get_and_filter_circuits)

    def save_and_update_circuit():
        c = nb.circuits.circuits.get(s.circuit.id)
        c.commit_rate = 20000
        c.status = "active"
        expect(c.save(), True, "save()")
        again = nb.circuits.circuits.get(s.circuit.id)
        expect(again.commit_rate, 20000, "commit_rate after save")
        expect(choice_value(again.status), "active", "status after save")
        expect(again.update({"description": "renewed", "termination_date": "2027-01-31"}), True, "update({…})")
        again = nb.circuits.circuits.get(s.circuit.id)
        expect(again.description, "renewed", "description after update")
        expect(again.termination_date, "2027-01-31", "termination_date after update")
        expect(again.install_date, "2024-01-15", "install_date (unchanged)")

    check("circuit Record.save() and Record.update({...})", save_and_update_circuit)

    def create_circuit_terminations():
        # NetBox 4.2+: a termination points at a site (or location, region, …) through
        # termination_type + termination_id.
        s.term_a = nb.circuits.circuit_terminations.create(
            circuit=s.circuit.id,
            term_side="A",
            termination_type="dcim.site",
            termination_id=s.site_a.id,
            port_speed=1000000,
            xconnect_id="XC-1",
        )
        s.term_z = nb.circuits.circuit_terminations.create(
            circuit=s.circuit.id, term_side="Z", termination_type="dcim.site", termination_id=s.site_b.id
        )
        t = nb.circuits.circuit_terminations.get(s.term_a.id)
        expect_true(isinstance(t, CircuitTerminations), f"a CircuitTerminations record, got {type(t).__name__}")
        expect(str(t), f"{P}-cid-1", "str(termination) (its circuit's cid)")
        expect(ident(t.circuit), s.circuit.id, "circuit id")
        expect(choice_value(t.term_side), "A", "term_side")
        expect(t.termination_type, "dcim.site", "termination_type")
        expect(t.termination_id, s.site_a.id, "termination_id")
        expect(ident(t.termination), s.site_a.id, "termination (nested site) id")
        expect(t.port_speed, 1000000, "port_speed")
        expect(t.xconnect_id, "XC-1", "xconnect_id")

    check("circuits.circuit_terminations.create (A and Z at sites)", create_circuit_terminations)

    def filter_and_update_terminations():
        sides = [choice_value(t.term_side) for t in nb.circuits.circuit_terminations.filter(circuit_id=s.circuit.id)]
        expect(sides, ["A", "Z"], "filter(circuit_id=…) term sides")
        t = nb.circuits.circuit_terminations.get(s.term_z.id)
        t.port_speed = 500000
        t.description = "far end"
        expect(t.save(), True, "save()")
        again = nb.circuits.circuit_terminations.get(s.term_z.id)
        expect(again.port_speed, 500000, "port_speed after save")
        expect(again.description, "far end", "description after save")
        expect(again.update({"pp_info": "panel 3 port 4"}), True, "update({…})")
        expect(nb.circuits.circuit_terminations.get(s.term_z.id).pp_info, "panel 3 port 4", "pp_info after update")

    check("circuit terminations filter(circuit_id=…), save() and update()", filter_and_update_terminations)

    def cable_to_circuit():
        cable = nb.dcim.cables.create(
            a_terminations=rear_end("a.rear2"),
            b_terminations=[{"object_type": "circuits.circuittermination", "object_id": s.term_a.id}],
            label=f"{P}-cable-circuit",
        )
        expect_true(
            isinstance(cable.b_terminations[0], CircuitTerminations),
            f"b end becomes a CircuitTerminations record, got {cable.b_terminations[0]!r}",
        )
        expect(cable.b_terminations[0].id, s.term_a.id, "b end id")
        t = nb.circuits.circuit_terminations.get(s.term_a.id)
        expect(ident(t.cable), cable.id, "termination's cable")
        expect(t.cable_end, "B", "termination's cable_end")
        expect(cable.delete(), True, "delete() of the cable")
        expect(nb.circuits.circuit_terminations.get(s.term_a.id).cable, None, "termination free again")

    check("a cable from a rear port to a circuit termination", cable_to_circuit)

    def provider_networks_and_virtual_circuits():
        # What pynetbox's own integration tests (tests/integration/test_circuits.py) reach.
        s.network = nb.circuits.provider_networks.create(name=f"{P}-network", provider=s.provider.id)
        expect(str(s.network), f"{P}-network", "str(provider network)")
        expect(ident(nb.circuits.provider_networks.get(name=f"{P}-network")), s.network.id, "provider network get(name=…)")
        s.vc_type = nb.circuits.virtual_circuit_types.create(name=f"{P}-evpl", slug=f"{P}-evpl")
        s.vc = nb.circuits.virtual_circuits.create(cid=f"{P}-vc-1", provider_network=s.network.id, type=s.vc_type.id)
        expect(str(s.vc), f"{P}-vc-1", "str(virtual circuit) (its cid)")
        vc = nb.circuits.virtual_circuits.get(cid=f"{P}-vc-1")
        vc.description = "Test Value"
        expect(vc.save(), True, "virtual circuit save()")
        expect(nb.circuits.virtual_circuits.get(s.vc.id).description, "Test Value", "description after save")
        expect([ident(v) for v in nb.circuits.virtual_circuits.filter(provider_id=s.provider.id)], [s.vc.id], "filter(provider_id=…)")
        hub = nb.dcim.interfaces.create(name=f"{P}-vlan100", type="virtual", device=s.device_c.id)
        spoke = nb.dcim.interfaces.create(name=f"{P}-vlan200", type="virtual", device=s.device_c.id)
        s.vct = nb.circuits.virtual_circuit_terminations.create(virtual_circuit=s.vc.id, role="hub", interface=hub.id)
        nb.circuits.virtual_circuit_terminations.create(virtual_circuit=s.vc.id, role="spoke", interface=spoke.id)
        t = nb.circuits.virtual_circuit_terminations.get(virtual_circuit_id=s.vc.id, role="hub")
        expect(t.virtual_circuit.cid, f"{P}-vc-1", "termination's virtual circuit cid")
        expect(choice_value(t.role), "hub", "termination role")
        expect(ident(t.interface), hub.id, "termination interface")
        roles = sorted(choice_value(x.role) for x in nb.circuits.virtual_circuit_terminations.filter(virtual_circuit_id=s.vc.id))
        expect(roles, ["hub", "spoke"], "filter(virtual_circuit_id=…)")
        expect(nb.circuits.virtual_circuits.get(s.vc.id).delete(), True, "delete() of the virtual circuit")
        expect(list(nb.circuits.virtual_circuit_terminations.filter(virtual_circuit_id=s.vc.id)), [], "its terminations are gone")
        expect(nb.dcim.interfaces.delete([hub.id, spoke.id]), True, "bulk delete of the interfaces")
        expect(nb.circuits.provider_networks.get(s.network.id).delete(), True, "delete() of the provider network")
        expect(nb.circuits.virtual_circuit_types.get(s.vc_type.id).delete(), True, "delete() of the virtual circuit type")

    check("provider networks, virtual circuits and their terminations", provider_networks_and_virtual_circuits)

    def aggregates_and_ipam_roles():
        # What pynetbox's tests/integration/test_ipam.py reaches besides prefixes, addresses and VLANs.
        rir = nb.ipam.rirs.create(name=f"{P}-rir", slug=f"{P}-rir")
        aggregate = nb.ipam.aggregates.create(prefix="192.0.2.0/24", rir=rir.id)
        found = nb.ipam.aggregates.get(prefix="192.0.2.0/24")
        expect(ident(found), aggregate.id, "aggregate get(prefix=…)")
        found.description = "Test Value"
        expect(found.save(), True, "aggregate save()")
        expect(nb.ipam.aggregates.get(aggregate.id).description, "Test Value", "description after save")
        role = nb.ipam.roles.create(name=f"{P}-role", slug=f"{P}-role")
        expect(ident(nb.ipam.roles.get(name=f"{P}-role")), role.id, "role get(name=…)")
        expect(role.update({"description": "Test Value"}), True, "role update({…})")
        expect(aggregate.delete(), True, "delete() of the aggregate")
        expect(role.delete(), True, "delete() of the role")
        expect(rir.delete(), True, "delete() of the RIR")

    check("ipam.aggregates and ipam.roles", aggregates_and_ipam_roles)

    def delete_circuits():
        expect(nb.circuits.circuit_terminations.get(s.term_z.id).delete(), True, "delete() of termination Z")
        expect(nb.circuits.circuit_terminations.get(s.term_z.id), None, "termination Z after delete")
        try:
            nb.circuits.providers.get(s.provider.id).delete()
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 409, "status of deleting a provider that has circuits")
        else:
            raise CheckFailed("deleting a provider that still has circuits succeeded (NetBox: PROTECT, 409)")
        expect(nb.circuits.circuits.get(s.circuit.id).delete(), True, "delete() of the circuit")
        expect(nb.circuits.circuits.get(s.circuit.id), None, "circuit after delete")
        expect(list(nb.circuits.circuit_terminations.filter(circuit_id=s.circuit.id)), [], "its terminations are gone")
        expect(nb.circuits.circuits.delete([s.circuit_2.id]), True, "bulk delete of circuit 2")
        expect(nb.circuits.providers.get(s.provider.id).delete(), True, "delete() of the provider")
        expect(nb.circuits.circuit_types.get(s.circuit_type.id).delete(), True, "delete() of the circuit type")
        expect(nb.circuits.circuits.count(q=P), 0, "no circuit of this run left")

    check("circuit deletes: termination, PROTECTed provider (409), circuit with its terminations", delete_circuits)

    # ------------------------------------------------------------------ fms plugin (nb.plugins.fms)
    # pynetbox reaches a plugin's endpoints as nb.plugins.<plugin>.<endpoint>, turning underscores into
    # hyphens: nb.plugins.fms.cable_types is /api/plugins/fms/cable-types/.
    fms = nb.plugins.fms
    FMS_TUBES, FMS_FIBERS_PER_TUBE = 2, 6

    def create_fms_cable_type():
        s.fms_type = fms.cable_types.create(
            manufacturer=s.manufacturer.id,
            model=f"{P}-fibre-12",
            construction="loose_tube",
            strand_count=FMS_TUBES * FMS_FIBERS_PER_TUBE,
            deployment="duct",
        )
        t = s.fms_type
        expect(t.url, f"{URL}/api/plugins/fms/cable-types/{t.id}/", "url")
        expect(str(t), f"{P}-fibre-12", "str(cable type) (its model)")
        expect(ident(t.manufacturer), s.manufacturer.id, "manufacturer id")
        expect(t.manufacturer.name, f"{P}-maker", "manufacturer name (nested)")
        expect(choice_value(t.construction), "loose_tube", "construction")
        expect(choice_value(t.color_scheme), "eia_598", "default color_scheme")
        expect(t.strand_count, FMS_TUBES * FMS_FIBERS_PER_TUBE, "strand_count")
        expect(t.instance_count, 0, "instance_count")
        s.fms_tube_templates = [
            fms.buffer_tube_templates.create(
                fiber_cable_type=t.id, name=f"T{position}", position=position, fiber_count=FMS_FIBERS_PER_TUBE
            )
            for position in range(1, FMS_TUBES + 1)
        ]
        listed = list(fms.buffer_tube_templates.filter(fiber_cable_type_id=t.id))
        expect(names(listed), ["T1", "T2"], "buffer tube templates of the type")
        expect(fms.cable_types.get(t.id).buffer_tube_template_count, FMS_TUBES, "buffer_tube_template_count")

    check("plugins.fms.cable_types.create and buffer_tube_templates.create", create_fms_cable_type)

    def list_fms_cable_types():
        s.fms_type_2 = fms.cable_types.create(
            manufacturer=s.manufacturer.id, model=f"{P}-ribbon-24", construction="ribbon", strand_count=24
        )
        mine = list(fms.cable_types.filter(manufacturer_id=s.manufacturer.id))
        expect(sorted(str(t) for t in mine), [f"{P}-fibre-12", f"{P}-ribbon-24"], "filter(manufacturer_id=…)")
        expect(ident(fms.cable_types.get(model=f"{P}-ribbon-24")), s.fms_type_2.id, "get(model=…)")
        ribbons = [str(t) for t in fms.cable_types.filter(manufacturer_id=s.manufacturer.id, construction="ribbon")]
        expect(ribbons, [f"{P}-ribbon-24"], "filter(manufacturer_id=…, construction='ribbon')")
        expect_true(s.fms_type.id in [t.id for t in fms.cable_types.all()], "all() lists the new type")
        expect(fms.cable_types.count(manufacturer_id=s.manufacturer.id), 2, "count(manufacturer_id=…)")
        constructions = {c.get("value") for c in fms.cable_types.choices().get("construction", [])}
        expect_true("ribbon_in_tube" in constructions, f"choices() construction includes ribbon_in_tube, got {sorted(constructions)}")

    check("plugins.fms.cable_types all() / filter() / get() / count() / choices()", list_fms_cable_types)

    def save_and_update_fms_cable_type():
        t = fms.cable_types.get(s.fms_type.id)
        t.part_number = "FC-12"
        t.jacket_color = "000000"
        expect(t.save(), True, "save()")
        again = fms.cable_types.get(s.fms_type.id)
        expect(again.part_number, "FC-12", "part_number after save")
        expect(again.jacket_color, "000000", "jacket_color after save")
        expect(again.update({"is_armored": True, "armor_type": "steel_tape", "mark_unit": "m"}), True, "update({…})")
        again = fms.cable_types.get(s.fms_type.id)
        expect(again.is_armored, True, "is_armored after update")
        expect(choice_value(again.armor_type), "steel_tape", "armor_type after update")
        expect(choice_value(again.deployment), "duct", "deployment (unchanged)")
        try:
            again.update({"armor_type": ""})
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 400, "status of an armored type without armor type")
            expect(sorted(error.req.json()), ["armor_type"], "the field the refusal names")
        else:
            raise CheckFailed("an armored cable type without armor type was accepted")
        expect(choice_value(fms.cable_types.get(s.fms_type.id).armor_type), "steel_tape", "armor_type after the refusal")

    check("fms cable type Record.save() and Record.update({...}), a refused update (400)", save_and_update_fms_cable_type)

    def fibre_cable(a_key, b_key, cable_type="smf"):
        return nb.dcim.cables.create(
            a_terminations=rear_end(a_key), b_terminations=rear_end(b_key), type=cable_type, label=f"{P}-fibre-{a_key}"
        )

    def create_fiber_cable():
        s.fms_platform_cable = fibre_cable("a.rear1", "b.rear1")
        s.fiber_cable = fms.fiber_cables.create(
            fiber_cable_type=s.fms_type.id, cable=s.fms_platform_cable.id, serial_number=f"{P}-sn-1", start_mark=120, end_mark=20
        )
        f = s.fiber_cable
        expect(f.url, f"{URL}/api/plugins/fms/fiber-cables/{f.id}/", "url")
        expect(ident(f.cable), s.fms_platform_cable.id, "cable id")
        expect(ident(f.fiber_cable_type), s.fms_type.id, "fiber_cable_type id")
        expect(str(f.fiber_cable_type), f"{P}-fibre-12", "fiber_cable_type (nested) model")
        got = fms.fiber_cables.get(f.id)
        expect((float(got.start_mark), float(got.end_mark)), (20.0, 120.0), "marks entered end-first are stored start-first")
        strands = list(fms.fiber_strands.filter(fiber_cable_id=f.id))
        expect(len(strands), s.fms_type.strand_count, "strands of the new fiber cable (the type's strand_count)")
        expect(fms.fiber_strands.count(fiber_cable_id=f.id), s.fms_type.strand_count, "fiber_strands.count(fiber_cable_id=…)")
        expect([strand.position for strand in strands], list(range(1, s.fms_type.strand_count + 1)), "strand positions")
        expect(strands[FMS_FIBERS_PER_TUBE].name, "T2-F1", "first strand of the second tube")
        expect(strands[FMS_FIBERS_PER_TUBE].color, "0000ff", "its colour (EIA-598 blue)")
        expect(ident(strands[0].fiber_cable), f.id, "a strand's fiber_cable")
        tubes = list(fms.buffer_tubes.filter(fiber_cable_id=f.id))
        expect(names(tubes), ["T1", "T2"], "buffer tubes of the new fiber cable")
        in_tube_2 = fms.fiber_strands.count(buffer_tube_id=tubes[1].id)
        expect(in_tube_2, FMS_FIBERS_PER_TUBE, "strands in the second tube")
        expect(fms.cable_types.get(s.fms_type.id).instance_count, 1, "the type's instance_count")

    check("plugins.fms.fiber_cables.create builds the type's strands (fiber_strands.filter(fiber_cable_id=…))", create_fiber_cable)

    def refused_fiber_cables():
        copper = fibre_cable("a.rear2", "b.rear2", cable_type="cat6")
        before = fms.fiber_cables.count()
        try:
            fms.fiber_cables.create(fiber_cable_type=s.fms_type.id, cable=copper.id)
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 400, "status of a fiber cable on a copper cable")
            expect(sorted(error.req.json()), ["cable"], "the field the refusal names")
        else:
            raise CheckFailed("a fiber cable on a cat6 cable was accepted")
        try:
            fms.fiber_cables.create(fiber_cable_type=s.fms_type.id, cable=s.fms_platform_cable.id)
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 400, "status of a second fiber cable on the same cable")
        else:
            raise CheckFailed("a second fiber cable on the same platform cable was accepted")
        expect(fms.fiber_cables.count(), before, "fiber cables after the refusals")
        expect(copper.delete(), True, "delete() of the copper cable")

    check("fms fiber cable refusals (400): a copper cable, a cable that has one", refused_fiber_cables)

    def list_save_and_update_fiber_cables():
        s.fms_platform_cable_2 = fibre_cable("c.rear1", "c.rear2")
        s.fiber_cable_2 = fms.fiber_cables.create(fiber_cable_type=s.fms_type.id, cable=s.fms_platform_cable_2.id)
        of_type = [ident(f.cable) for f in fms.fiber_cables.filter(fiber_cable_type_id=s.fms_type.id)]
        expect(sorted(of_type), sorted([s.fms_platform_cable.id, s.fms_platform_cable_2.id]), "filter(fiber_cable_type_id=…)")
        expect(ident(fms.fiber_cables.get(cable_id=s.fms_platform_cable_2.id)), s.fiber_cable_2.id, "get(cable_id=…)")
        on_device_c = [f.id for f in fms.fiber_cables.filter(terminated_device_id=s.device_c.id)]
        expect(on_device_c, [s.fiber_cable_2.id], "filter(terminated_device_id=…)")
        f = fms.fiber_cables.get(s.fiber_cable.id)
        f.serial_number = f"{P}-sn-1b"
        f.install_date = "2025-03-01"
        expect(f.save(), True, "save()")
        again = fms.fiber_cables.get(s.fiber_cable.id)
        expect(again.serial_number, f"{P}-sn-1b", "serial_number after save")
        expect(again.install_date, "2025-03-01", "install_date after save")
        expect(again.update({"installed_by": s.tenant.id, "notes": "pulled in duct 4"}), True, "update({…})")
        again = fms.fiber_cables.get(s.fiber_cable.id)
        expect(ident(again.installed_by), s.tenant.id, "installed_by after update")
        expect(again.notes, "pulled in duct 4", "notes after update")
        expect(ident(again.fiber_cable_type), s.fms_type.id, "fiber_cable_type (unchanged)")
        expect(fms.fiber_strands.count(fiber_cable_id=s.fiber_cable.id), s.fms_type.strand_count, "strands after the updates")

    check("fms fiber cables filter() / get(cable_id=…), Record.save() and Record.update({...})", list_save_and_update_fiber_cables)

    def update_fiber_strand():
        strand = fms.fiber_strands.get(fiber_cable_id=s.fiber_cable.id, position=1)
        expect(strand.name, "T1-F1", "strand at position 1")
        expect(strand.update({"marker_count": 2, "marker_color": "ff0000"}), True, "update({…})")
        again = fms.fiber_strands.get(strand.id)
        expect((again.marker_count, again.marker_color), (2, "ff0000"), "markers after update")

    check("fms fiber_strands.get(fiber_cable_id=…, position=…) and update({...})", update_fiber_strand)

    def delete_fms_objects():
        try:
            fms.cable_types.get(s.fms_type.id).delete()
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 409, "status of deleting a cable type that has fiber cables")
        else:
            raise CheckFailed("deleting a cable type that still has fiber cables succeeded (PROTECT, 409)")
        expect(fms.fiber_cables.get(s.fiber_cable.id).delete(), True, "delete() of fiber cable 1")
        expect(fms.fiber_cables.get(s.fiber_cable.id), None, "get() after delete")
        expect(fms.fiber_strands.count(fiber_cable_id=s.fiber_cable.id), 0, "its strands are gone")
        expect(fms.buffer_tubes.count(fiber_cable_id=s.fiber_cable.id), 0, "its tubes are gone")
        expect(ident(nb.dcim.cables.get(s.fms_platform_cable.id)), s.fms_platform_cable.id, "its platform cable stays")
        # Deleting the platform cable takes its fiber cable (CASCADE) and that one's strands with it.
        expect(nb.dcim.cables.get(s.fms_platform_cable_2.id).delete(), True, "delete() of platform cable 2")
        expect(fms.fiber_cables.get(s.fiber_cable_2.id), None, "fiber cable 2 after its platform cable's delete")
        expect(fms.fiber_strands.count(fiber_cable_id=s.fiber_cable_2.id), 0, "fiber cable 2's strands are gone")
        expect(nb.dcim.cables.get(s.fms_platform_cable.id).delete(), True, "delete() of platform cable 1")
        expect(fms.cable_types.get(s.fms_type.id).delete(), True, "delete() of the cable type")
        expect(fms.buffer_tube_templates.count(fiber_cable_type_id=s.fms_type.id), 0, "its templates are gone")
        expect(fms.cable_types.delete([s.fms_type_2.id]), True, "bulk delete of cable type 2")
        expect(fms.cable_types.count(manufacturer_id=s.manufacturer.id), 0, "no cable type of this run left")

    check("fms deletes: PROTECTed cable type (409), fiber cable with its strands, CASCADE from the platform cable", delete_fms_objects)

    # ------------------------------------------------------------------ peering plugin (nb.plugins.peering)
    # Built on the routing plugin's BGP peers: nb.plugins.peering.peer_asn is /api/plugins/peering/peer-asn/.
    peering = nb.plugins.peering
    routing = nb.plugins.routing

    def create_peering_objects():
        s.peering_device = nb.dcim.devices.create(name=f"{P}-peering-router", device_type=s.device_type.id, role=s.role.id, site=s.site_a.id)
        s.rir = nb.ipam.rirs.create(name=f"{P}-rir", slug=f"{P}-rir")
        s.local_asn = nb.ipam.asns.create(asn=4_200_000_000 + secrets.randbelow(90_000_000), rir=s.rir.id)
        s.remote_asn = nb.ipam.asns.create(asn=s.local_asn.asn + 1, rir=s.rir.id, description=f"{P}-networks")
        s.peer_ip = nb.ipam.ip_addresses.create(address="198.18.0.2/30", description=P)
        router = routing.bgp_routers.create(device=s.peering_device.id, asn=s.local_asn.id)
        scope = routing.bgp_scopes.create(router=router.id)
        s.bgp_peer = routing.bgp_peers.create(scope=scope.id, peer=s.peer_ip.id, name=f"{P}-peer", remote_as=s.remote_asn.id, password="s3cret")
        s.relationship = peering.relationship.create(name=f"{P}-transit", slug=f"{P}-transit")
        s.peer_asn = peering.peer_asn.create(asn=s.remote_asn.id, irr_as_set="AS-INTEROP")
        expect(s.peer_asn.url, f"{URL}/api/plugins/peering/peer-asn/{s.peer_asn.id}/", "peer ASN url")
        expect(s.peer_asn.name, f"{P}-networks", "peer ASN name (its ASN's description)")
        s.session = peering.peering_session.create(bgp_peer=s.bgp_peer.id, relationship=s.relationship.id, service_reference=f"{P}-SR")
        expect(ident(s.session.bgp_peer), s.bgp_peer.id, "session bgp_peer id")
        expect(s.session.bgp_peer.name, f"{P}-peer", "session bgp_peer name (nested)")
        expect(s.session.relationship.name, f"{P}-transit", "session relationship name (nested)")
        try:
            peering.peering_session.create(bgp_peer=s.bgp_peer.id)
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 400, "status of a second session on the BGP peer")
            expect_true("bgp_peer" in error.error, f"the error names bgp_peer, got {error.error}")
        else:
            raise CheckFailed("a second session on one BGP peer was created")
        s.irr_source = peering.irr_source.create(name=f"{P}-radb", slug=f"{P}-radb", api_endpoint="https://bgpq.example.net/")
        expect(s.irr_source.api_endpoint, "https://bgpq.example.net/", "IRR source api_endpoint")
        expect(s.irr_source.url, f"{URL}/api/plugins/peering/irr-source/{s.irr_source.id}/", "IRR source url (its own link)")
        s.fabrics = [
            peering.peering_fabric.create(name=f"{P}-ix-{status}", slug=f"{P}-ix-{status}", status=status)
            for status in ("active", "planned", "decommissioned")
        ]
        expect(s.fabrics[0].peerdb, None, "peerdb of an unlinked fabric")

    check("plugins.peering: peer_asn, peering_session (one per BGP peer), irr_source (api_endpoint), peering_fabric", create_peering_objects)

    def filter_peering_objects():
        planned_or_gone = peering.peering_fabric.filter(q=P, status=["planned", "decommissioned"])
        expect(sorted(f.name for f in planned_or_gone), [f"{P}-ix-decommissioned", f"{P}-ix-planned"], "filter(status=[planned, decommissioned])")
        expect(peering.peering_fabric.count(q=P), 3, "count(q=…)")
        expect(ident(peering.peering_session.get(bgp_peer_id=s.bgp_peer.id)), s.session.id, "get(bgp_peer_id=…)")
        expect(ident(peering.peer_asn.get(irr_as_set="AS-INTEROP", asn_id=s.remote_asn.id)), s.peer_asn.id, "get(irr_as_set=…, asn_id=…)")
        expect([r.id for r in peering.relationship.filter(q=f"{P}-trans")], [s.relationship.id], "relationship filter(q=…)")
        s.session.service_reference = f"{P}-SR-2"
        expect(s.session.save(), True, "save() of a changed session")
        expect(peering.peering_session.get(s.session.id).service_reference, f"{P}-SR-2", "service_reference read back")

    check("plugins.peering filter() / get() / count() / save()", filter_peering_objects)

    def render_peering_config():
        template = nb.extras.config_templates.create(name=f"{P}-bgp", template_code="{% for s in sessions %}neighbor {{ s.remote_ip }} remote-as {{ s.peer_asn }}{% endfor %}")
        rendered = peering.render_config.create(template=template.id, device=s.peering_device.id)
        expect(rendered.content, f"neighbor 198.18.0.2 remote-as {s.remote_asn.asn}", "render-config content")
        expect(rendered.session_count, 1, "render-config session_count")
        expect(rendered.device.name, f"{P}-peering-router", "render-config device")
        expect(template.delete(), True, "delete() of the config template")

    check("plugins.peering.render_config.create(template=…, device=…) renders the sessions", render_peering_config)

    def delete_peering_objects():
        try:
            routing.bgp_peers.get(s.bgp_peer.id).delete()
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 409, "status of deleting a BGP peer with a session")
        else:
            raise CheckFailed("deleting a BGP peer with a peering session succeeded (PROTECT, 409)")
        expect(peering.peering_session.get(s.session.id).delete(), True, "delete() of the session")
        expect(routing.bgp_peers.get(s.bgp_peer.id).delete(), True, "delete() of the BGP peer")
        expect(peering.peering_fabric.filter(q=P).delete(), True, "RecordSet.delete() of the fabrics")
        expect(peering.peer_asn.delete([s.peer_asn.id]), True, "bulk delete of the peer ASN")
        expect(peering.irr_source.get(s.irr_source.id).delete(), True, "delete() of the IRR source")
        expect(peering.relationship.get(s.relationship.id).delete(), True, "delete() of the relationship")
        expect(s.peering_device.delete(), True, "delete() of the router's device (its BGP router and scope go with it)")
        expect(nb.ipam.ip_addresses.get(s.peer_ip.id).delete(), True, "delete() of the peer address")
        expect(nb.ipam.asns.filter(rir_id=s.rir.id).delete(), True, "RecordSet.delete() of the ASNs")
        expect(nb.ipam.rirs.get(s.rir.id).delete(), True, "delete() of the RIR")

    check("plugins.peering deletes: a BGP peer with a session is PROTECTed (409), then every peering object", delete_peering_objects)

    # ------------------------------------------------------------------ pathways plugin (nb.plugins.pathways)
    pathways = nb.plugins.pathways

    def create_pathways_objects():
        point = lambda lon, lat: {"type": "Point", "coordinates": [lon, lat]}
        s.structure_a = pathways.structures.create(name=f"{P}-MH-1", structure_type="manhole", geometry=point(4.9, 52.37))
        s.structure_b = pathways.structures.create(
            name=f"{P}-MH-2", structure_type="manhole", status="planned", geometry=point(4.91, 52.37)
        )
        expect(s.structure_a.url, f"{URL}/api/plugins/pathways/structures/{s.structure_a.id}/", "structure url")
        expect(choice_value(s.structure_b.status), "planned", "structure status value")
        expect(s.structure_b.status.color, "cyan", "structure status color")
        s.conduit = pathways.conduits.create(
            label=f"{P}-C-1",
            material="hdpe",
            start_structure=s.structure_a.id,
            end_structure=s.structure_b.id,
            path={"type": "LineString", "coordinates": [[4.9, 52.37], [4.91, 52.37]]},
        )
        expect(s.conduit.pathway_type, "conduit", "conduit pathway_type")
        expect(ident(s.conduit.start_structure), s.structure_a.id, "conduit start_structure")

    check("plugins.pathways: structures with GeoJSON points, a conduit between them (status with colour)", create_pathways_objects)

    def filter_pathways_objects():
        expect(names(pathways.structures.filter(q=P, status="planned")), [f"{P}-MH-2"], "structures filter(q=…, status=…)")
        expect(pathways.structures.count(q=P, bbox="4.89,52.36,4.905,52.38"), 1, "structures count(bbox=…)")
        expect(ident(pathways.conduits.get(label=f"{P}-C-1")), s.conduit.id, "conduits get(label=…)")
        conduit = pathways.conduits.get(s.conduit.id)
        conduit.depth = 0.9
        expect(conduit.save(), True, "save() of a conduit")
        expect(float(pathways.conduits.get(s.conduit.id).depth), 0.9, "depth read back")

    check("plugins.pathways filter() / count() / get() / save()", filter_pathways_objects)

    def delete_pathways_objects():
        try:
            pathways.structures.get(s.structure_a.id).delete()
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 409, "status of deleting a structure a conduit starts at")
        else:
            raise CheckFailed("deleting a structure that a conduit starts at succeeded (PROTECT, 409)")
        expect(pathways.conduits.get(s.conduit.id).delete(), True, "delete() of the conduit")
        expect(pathways.structures.filter(q=P).delete(), True, "RecordSet.delete() of the structures")
        expect(pathways.structures.count(q=P), 0, "structures left")

    check("plugins.pathways deletes: a structure in use is PROTECTed (409), then every pathways object", delete_pathways_objects)

    # ------------------------------------------------------------------ notices plugin (nb.plugins.notices)
    # nb.plugins.notices.prepared_notifications is /api/plugins/notices/prepared-notifications/.
    notices = nb.plugins.notices

    def create_notices_objects():
        s.notices_provider = nb.circuits.providers.create(name=f"{P}-carrier", slug=f"{P}-carrier")
        s.notices_site = nb.dcim.sites.create(name=f"{P}-notices-site", slug=f"{P}-notices-site")
        s.outage = notices.outage.create(name=f"{P}-INC", summary="Fiber cut", provider=s.notices_provider.id)
        expect(choice_value(s.outage.status), "REPORTED", "an outage's default status")
        expect(s.outage.status_color, "red", "status_color")
        s.maintenance = notices.maintenance.create(
            name=f"{P}-MNT", summary="Splice", provider=s.notices_provider.id, status="CONFIRMED",
            start="2031-01-01T01:00:00Z", end="2031-01-01T03:00:00Z",
        )
        s.impact = notices.impact.create(
            event_content_type="notices.maintenance", event_object_id=s.maintenance.id,
            target_content_type="dcim.site", target_object_id=s.notices_site.id, impact="DEGRADED",
        )
        expect(choice_value(s.impact.impact), "DEGRADED", "impact level")
        s.notification = notices.eventnotification.create(
            event_content_type="notices.maintenance", event_object_id=s.maintenance.id, subject=f"{P} maintenance",
            email_from="noc@carrier.example", email_received="2030-12-01T10:00:00Z", email_body="body",
        )
        expect(s.notification.subject, f"{P} maintenance", "event notification subject")

    check("plugins.notices: outage (default REPORTED), maintenance, impact, eventnotification", create_notices_objects)

    def notices_rules():
        expect(notices.maintenance.get(s.maintenance.id).impact_count, 1, "impact_count")
        expect([r.id for r in notices.maintenance.filter(site_id=s.notices_site.id)], [s.maintenance.id], "maintenance filter(site_id=…)")
        s.outage.estimated_time_to_repair = "2031-01-01T05:00:00Z"
        expect(s.outage.save(), True, "save() of the outage's ETR")
        try:
            notices.outage.get(s.outage.id).update({"status": "RESOLVED"})
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 400, "status of RESOLVED without an end")
            expect_true("end" in error.error, f"the error names end, got {error.error}")
        else:
            raise CheckFailed("an outage was resolved without an end")
        expect(notices.maintenance.get(s.maintenance.id).update({"status": "COMPLETED"}), True, "update() to COMPLETED")
        try:
            notices.impact.get(s.impact.id).delete()
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 400, "status of deleting a frozen impact")
        else:
            raise CheckFailed("an impact of a completed maintenance was deleted")

    check("plugins.notices rules: impact_count, filter(site_id=…), save() of the ETR, RESOLVED needs end, frozen impacts", notices_rules)

    def prepared_notification_walk():
        template = notices.notification_templates.create(name=f"{P}-tpl", slug=f"{P}-tpl", subject_template="x")
        contact = nb.tenancy.contacts.create(name=f"{P}-contact", email="noc@customer.example")
        n = notices.prepared_notifications.create(template=template.id, subject="Notice", contacts=[contact.id])
        expect(choice_value(n.status), "draft", "a new notification is a draft")
        for status in ("ready", "sent", "delivered"):
            expect(notices.prepared_notifications.get(n.id).update({"status": status, "message": f"to {status}"}), True, f"update() to {status}")
        n = notices.prepared_notifications.get(n.id)
        expect(choice_value(n.status), "delivered", "status read back")
        expect([r["email"] for r in n.recipients], ["noc@customer.example"], "recipients snapshot")
        expect(len(list(notices.prepared_notifications.filter(status="delivered", id=n.id))), 1, "filter(status=delivered)")
        expect(n.delete(), True, "delete() of the notification")
        expect(template.delete(), True, "delete() of the template")
        expect(contact.delete(), True, "delete() of the contact")

    check("plugins.notices.prepared_notifications: draft → ready → sent → delivered with update()", prepared_notification_walk)

    def upstream_notification_payloads():
        scoped = notices.notification_templates.create(
            name=f"{P}-up", slug=f"{P}-up", subject_template="x",
            scopes=[{"content_type": "provider", "object_id": s.notices_provider.id, "weight": 200}],
        )
        expect([(dict(sc)["content_type"], dict(sc)["object_repr"]) for sc in scoped.scopes], [("provider", f"{P}-carrier")], "inline scopes read back")
        contact = nb.tenancy.contacts.create(name=f"{P}-up-contact", email="up@customer.example")
        n = notices.prepared_notifications.create(template_id=scoped.id, contact_ids=[contact.id], subject="Upstream")
        expect((n.template.id, [c.id for c in n.contacts], n.viewed_at), (scoped.id, [contact.id], None), "template_id, contact_ids, viewed_at")
        scoped.scopes = []
        expect(scoped.save(), True, "save() replacing the scopes")
        expect(notices.notification_templates.get(scoped.id).scopes, [], "scopes replaced by an empty list")
        expect(n.delete(), True, "delete() of the notification")
        expect(scoped.delete(), True, "delete() of the template")
        expect(contact.delete(), True, "delete() of the contact")

    check("plugins.notices upstream payloads: template_id, contact_ids, inline scopes", upstream_notification_payloads)

    def nested_event_lists():
        m = notices.maintenance.get(s.maintenance.id)
        expect([(dict(i)["target_type"], dict(i)["target_object"]["id"]) for i in m.impacts], [("dcim.site", s.notices_site.id)], "maintenance impacts")
        expect([dict(x)["subject"] for x in m.notifications], [f"{P} maintenance"], "maintenance notifications")

    check("plugins.notices: maintenances carry nested impacts and notifications", nested_event_lists)

    def delete_notices_objects():
        expect(notices.maintenance.get(s.maintenance.id).delete(), True, "delete() of the maintenance (its impact and notification go with it)")
        expect(notices.eventnotification.get(s.notification.id), None, "the notification is gone")
        expect(notices.outage.get(s.outage.id).delete(), True, "delete() of the outage")
        expect(nb.dcim.sites.get(s.notices_site.id).delete(), True, "delete() of the site")
        expect(nb.circuits.providers.get(s.notices_provider.id).delete(), True, "delete() of the provider")

    check("plugins.notices deletes", delete_notices_objects)

    # ------------------------------------------------------------------ wdm plugin (nb.plugins.wdm)
    wdm = nb.plugins.wdm

    def wdm_post(path, body=None):
        """A WDM REST operation (pynetbox has no call for custom actions; NetBox scripts use its session)."""
        return nb.http_session.post(f"{URL}/api/plugins/wdm/{path}", json=body, headers={"Authorization": f"Token {TOKEN}"})

    def create_wdm_objects():
        s.wdm_maker = nb.dcim.manufacturers.create(name=f"{P}-optical", slug=f"{P}-optical")
        s.wdm_type = nb.dcim.device_types.create(manufacturer=s.wdm_maker.id, model=f"{P}-ROADM", slug=f"{P}-roadm")
        s.wdm_site = nb.dcim.sites.create(name=f"{P}-wdm-site", slug=f"{P}-wdm-site")
        s.wdm_role = nb.dcim.device_roles.create(name=f"{P}-wdm-role", slug=f"{P}-wdm-role")
        rear = {name: nb.dcim.rear_port_templates.create(device_type=s.wdm_type.id, name=name, type="lc", positions=44) for name in ("LINE-TX", "LINE-RX")}
        front = {name: nb.dcim.front_port_templates.create(device_type=s.wdm_type.id, name=name, type="lc") for name in ("M1", "M2", "D1", "D2", "M9")}
        s.wdm_profile = wdm.wdm_profiles.create(device_type=s.wdm_type.id, node_type="roadm", grid="dwdm_c_50ghz")
        expect(choice_value(s.wdm_profile.fiber_type), "duplex", "a profile's default fiber_type")
        plans = wdm.wdm_channel_plans.create([
            {"profile": s.wdm_profile.id, "grid_position": 1, "mux_front_port_template": front["M1"].id, "demux_front_port_template": front["D1"].id},
            {"profile": s.wdm_profile.id, "grid_position": 2, "mux_front_port_template": front["M2"].id, "demux_front_port_template": front["D2"].id},
        ])
        expect(len(plans), 2, "bulk create of channel plans")
        expect([(p.grid_position, p.label, p.wavelength_nm) for p in wdm.wdm_channel_plans.filter(profile_id=s.wdm_profile.id)],
               [(1, "C21", 1560.61), (2, "C21.5", 1560.2)], "computed labels and wavelengths (a 50 GHz half step)")
        wdm.wdm_line_port_plans.create(profile=s.wdm_profile.id, rear_port_template=rear["LINE-TX"].id, direction="east", role="tx")
        wdm.wdm_line_port_plans.create(profile=s.wdm_profile.id, rear_port_template=rear["LINE-RX"].id, direction="east", role="rx")
        s.wdm_device = nb.dcim.devices.create(name=f"{P}-roadm-1", device_type=s.wdm_type.id, role=s.wdm_role.id, site=s.wdm_site.id)
        # The plugin creates the node of a device whose type has a WDM profile, as upstream does.
        s.wdm_node = wdm.wdm_nodes.get(device_id=s.wdm_device.id)
        expect((s.wdm_node.node_type.value, s.wdm_node.grid.value), ("roadm", "dwdm_c_50ghz"), "node created for the profiled device")
        expect(s.wdm_node.device.id, s.wdm_device.id, "the node's device")

    check("plugins.wdm: profile, channel plans (bulk, computed labels), line-port plans, node", create_wdm_objects)

    def wdm_generated_and_filters():
        channels = list(wdm.wdm_channels.filter(wdm_node_id=s.wdm_node.id))
        expect([(c.grid_position, c.label, choice_value(c.status)) for c in channels], [(1, "C21", "available"), (2, "C21.5", "available")], "generated channels")
        expect(channels[0].mux_front_port.name, "M1", "a channel's mux port matched by template name")
        expect(wdm.wdm_line_ports.count(wdm_node_id=s.wdm_node.id), 2, "generated line ports")
        expect(wdm.wdm_nodes.count(grid="dwdm_c_50ghz", node_type="roadm", device_id=s.wdm_device.id), 1, "nodes filter(grid, node_type, device_id)")
        expect(wdm.wdm_nodes.count(q=f"{P}-roadm-1"), 1, "nodes filter(q=device name)")
        expect(wdm.wdm_channels.count(wdm_node_id=s.wdm_node.id, grid_position=2), 1, "channels filter(grid_position)")
        statuses = {c.get("value") for c in wdm.wdm_channels.choices().get("status", [])}
        expect(statuses, {"available", "reserved", "active"}, "channel status choices()")
        channel = wdm.wdm_channels.get(channels[1].id)
        channel.status = "reserved"
        expect(channel.save(), True, "save() of a channel's status")
        expect(wdm.wdm_channels.count(wdm_node_id=s.wdm_node.id, status="reserved"), 1, "channels filter(status)")
        s.wdm_channels = channels

    check("plugins.wdm: generated channels and line ports, filters, choices(), channel save()", wdm_generated_and_filters)

    def wdm_operations():
        node = wdm.wdm_nodes.get(s.wdm_node.id)
        spare = nb.dcim.front_ports.get(device_id=s.wdm_device.id, name="M9")
        ch1 = s.wdm_channels[0]
        applied = wdm_post(f"wdm-nodes/{node.id}/apply-mapping/", {"last_updated": node.last_updated, "mapping": {str(ch1.id): {"mux": spare.id}}})
        expect(applied.status_code, 200, f"apply-mapping status ({applied.text[:300]})")
        expect(applied.json()["changed"], 1, "apply-mapping changed")
        stale = wdm_post(f"wdm-nodes/{node.id}/apply-mapping/", {"last_updated": node.last_updated, "mapping": {}})
        expect(stale.status_code, 409, "a stale last_updated")
        expect(wdm.wdm_channels.get(ch1.id).mux_front_port.name, "M9", "the channel reads back its new mux port")
        expect(wdm.wdm_nodes.get(node.id).port_sync_valid, True, "port_sync_valid after apply-mapping")
        expect(wdm.wdm_nodes.count(port_sync_valid="true", id=node.id), 1, "nodes filter(port_sync_valid)")
        synced = wdm_post(f"wdm-nodes/{node.id}/sync-ports/?dry_run=true")
        expect(synced.json()["changes"]["port_mappings"], {"delete": 0, "create": 0}, "sync-ports dry run after apply-mapping")
        trace = nb.http_session.get(f"{URL}/api/plugins/wdm/wdm-channels/{ch1.id}/trace/", headers={"Authorization": f"Token {TOKEN}"})
        expect((trace.status_code, trace.json()["elements"]), (200, []), "trace of a channel on no cable")

    check("plugins.wdm operations: apply-mapping (200, stale 409), sync-ports dry run, trace", wdm_operations)

    def wdm_circuits_and_paths():
        circuit = wdm.wdm_circuits.create(name=f"{P}-lambda", description="wave")
        expect(choice_value(circuit.status), "planned", "a circuit's default status")
        circuit.status = "decommissioned"
        expect(circuit.save(), True, "save() of the circuit's status")
        expect(choice_value(wdm.wdm_circuits.get(name=f"{P}-lambda").status), "decommissioned", "get(name=…) reads it back")
        expect(isinstance(list(wdm.wdm_wavelength_paths.all()), list), True, "wavelength paths list")
        try:
            wdm.wdm_wavelength_paths.create(grid_position=1)
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 404, "wavelength paths are read-only (no POST route)")
        else:
            raise CheckFailed("a wavelength path was created through the API")
        expect(circuit.delete(), True, "delete() of the circuit")

    check("plugins.wdm circuits (create, save, get) and read-only wavelength paths", wdm_circuits_and_paths)

    def delete_wdm_objects():
        expect(wdm.wdm_nodes.get(s.wdm_node.id).delete(), True, "delete() of the node")
        expect(wdm.wdm_channels.count(wdm_node_id=s.wdm_node.id), 0, "its channels went with it")
        expect(nb.dcim.devices.get(s.wdm_device.id).delete(), True, "delete() of the device")
        expect(wdm.wdm_profiles.get(s.wdm_profile.id).delete(), True, "delete() of the profile (its plans go with it)")
        expect(nb.dcim.device_types.get(s.wdm_type.id).delete(), True, "delete() of the device type")
        for record in (s.wdm_maker, s.wdm_role, s.wdm_site):
            expect(record.delete(), True, f"delete() of {record}")

    check("plugins.wdm deletes", delete_wdm_objects)

    # ------------------------------------------------------------------ cleanup (deletes in dependency order)
    def cleanup():
        try:
            nb.dcim.device_types.get(s.device_type.id).delete()
        except pynetbox.RequestError as error:
            expect(error.req.status_code, 409, "status of deleting a device type that has devices")
        else:
            raise CheckFailed("deleting a device type that still has devices succeeded (NetBox: PROTECT, 409)")
        expect(nb.dcim.devices.filter(q=P).delete(), True, "RecordSet.delete() of the devices")
        expect(nb.dcim.devices.count(q=P), 0, "devices left")
        expect(nb.dcim.device_types.get(s.device_type.id).delete(), True, "delete() of the device type")
        expect(list(nb.dcim.rear_port_templates.filter(device_type_id=s.device_type.id)), [], "its templates are gone")
        expect(nb.dcim.device_roles.get(s.role.id).delete(), True, "delete() of the role")
        expect(nb.dcim.manufacturers.get(s.manufacturer.id).delete(), True, "delete() of the manufacturer")
        expect(nb.dcim.sites.filter(q=P).delete(), True, "RecordSet.delete() of the sites")
        expect(nb.tenancy.tenants.get(s.tenant.id).delete(), True, "delete() of the tenant")
        expect(nb.dcim.sites.count(q=P), 0, "sites left")

    check("cleanup: PROTECTed device type (409), then every object of this run deleted", cleanup)

    # ------------------------------------------------------------------ what pynetbox offers besides CRUD
    def status_report():
        status = nb.status()
        expect_true(isinstance(status, dict), f"status() answers a dict, got {status!r}")
        version = status.get("netbox-version")
        expect_true(
            isinstance(version, str) and version.startswith("4."),
            f"status()['netbox-version'] names a NetBox 4.x version, got {version!r} (keys: {sorted(status)})",
        )

    check("Api.status() reports netbox-version", status_report)

    def api_version():
        # pynetbox 7.0.0 sends no token with this request; NetBox 4 (LOGIN_REQUIRED) refuses anonymous
        # API requests, so NetBox users of this release put the token on the session.
        client = pynetbox.api(URL, token=TOKEN)
        client.http_session.headers["Authorization"] = f"Token {TOKEN}"
        version = client.version
        expect_true(
            isinstance(version, str) and version.startswith("4."),
            f"Api.version (the API-Version response header of GET /api/) names NetBox 4.x, got {version!r}",
        )

    check("Api.version reads the API-Version header", api_version)

    def openapi_document():
        document = nb.openapi()
        expect_true(isinstance(document, dict), f"openapi() answers a dict, got {type(document).__name__}")
        expect_true(str(document.get("openapi", "")).startswith("3."), f"an OpenAPI 3 document, got openapi={document.get('openapi')!r}")
        expect_true("/api/dcim/sites/" in document.get("paths", {}), "the document describes /api/dcim/sites/")

    check("Api.openapi() reads the schema at /api/docs/?format=openapi", openapi_document)

    def endpoint_choices():
        choices = nb.dcim.sites.choices()
        status = choices.get("status")
        expect_true(status is not None, f"choices() has the status field, got fields {sorted(choices)}")
        values = {c.get("value"): c.get("display_name") for c in status}
        expect(values.get("active"), "Active", "the 'active' status choice's display_name")
        cable_types = {c.get("value") for c in nb.dcim.cables.choices().get("type", [])}
        expect_true("smf" in cable_types, f"cable type choices include smf, got {sorted(cable_types)}")

    check("Endpoint.choices() (OPTIONS metadata: actions.POST.<field>.choices)", endpoint_choices)

    def create_token():
        if not USERNAME or not PASSWORD:
            print("  (PLATFORM_USERNAME/PLATFORM_PASSWORD not set: create_token not exercised)")
            return
        client = pynetbox.api(URL)
        token = client.create_token(USERNAME, PASSWORD)
        expect_true(isinstance(token.key, str) and len(token.key) == 40, f"a 40-character key, got {token.key!r}")
        expect(client.token, token.key, "the client keeps the new token")
        expect(token.user.username, USERNAME, "token.user.username")
        expect(client.dcim.sites.count(q=P), 0, "the new token lists sites")
        expect(nb.users.tokens.get(token.id).delete(), True, "delete() of the token")

    check("Api.create_token(username, password)", create_token)

    runner.run_all()


if __name__ == "__main__":
    main()
