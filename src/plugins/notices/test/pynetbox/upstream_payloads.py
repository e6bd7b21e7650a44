#!/usr/bin/env python3
"""Upstream netbox-notices payloads written with pynetbox (Debian's python3-pynetbox), as an
upstream user's script writes them: prepared notifications with template_id and contact_ids,
a template with inline scopes. Prints one JSON object of what the server answered.

Environment: PLATFORM_URL, PLATFORM_TOKEN, CONTACT_ID, TENANT_ID.
"""

import json
import os

import pynetbox

nb = pynetbox.api(os.environ["PLATFORM_URL"], token=os.environ["PLATFORM_TOKEN"])
notices = nb.plugins.notices
contact_id = int(os.environ["CONTACT_ID"])
tenant_id = int(os.environ["TENANT_ID"])

template = notices.notification_templates.create(
    name="Upstream", slug="upstream", subject_template="Notice",
    scopes=[{"content_type": "tenant", "object_id": tenant_id, "weight": 200}, {"content_type": "provider"}],
)
created_scopes = [dict(scope) for scope in notices.notification_templates.get(template.id).scopes]
notification = notices.prepared_notifications.create(template_id=template.id, contact_ids=[contact_id], subject="Upstream")
read = notices.prepared_notifications.get(notification.id)
as_written = {
    "template": read.template.id,
    "contacts": [contact.id for contact in read.contacts],
    "status": getattr(read.status, "value", read.status),
    "viewed_at": read.viewed_at,
}
ready = read.update({"status": "ready", "message": "approved"})
after = notices.prepared_notifications.get(notification.id)
template.scopes = [{"content_type": "maintenance", "event_status": "CONFIRMED"}]
saved = template.save()
replaced_scopes = [dict(scope) for scope in notices.notification_templates.get(template.id).scopes]
print(json.dumps({
    "created_scopes": created_scopes,
    "replaced_scopes": replaced_scopes,
    "template_saved": saved,
    "notification": as_written,
    "ready": ready,
    "recipients": [recipient["email"] for recipient in after.recipients],
    "status_after": getattr(after.status, "value", after.status),
}))
