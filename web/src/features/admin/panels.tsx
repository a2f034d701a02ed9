import type { ComponentType } from "react";
import type { AdminMe } from "../../lib/domain";
import { AdminsPanel } from "./admins-panel";
import { AuditPanel } from "./audit-panel";
import { JobsPanel } from "./jobs-panel";
import { OverviewPanel } from "./overview-panel";
import { PurchasesPanel } from "./purchases-panel";
import { UsersPanel } from "./users-panel";
import { WhitelabelPanel } from "./whitelabel-panel";
import { AffiliatesPanel } from "./affiliates-panel";
import { MessagesPanel } from "./messages-panel";
import { OutboxPanel } from "./outbox-panel";

/** One tab of the admin area: its id in `?tab=`, its label, and what it shows. */
export interface AdminPanel {
  id: string;
  label: string;
  Component: ComponentType<{ me: AdminMe }>;
}

/** The admin area's tabs, in order (the first is the default of `/admin`). */
export const panels: AdminPanel[] = [
  { id: "overview", label: "Overview", Component: OverviewPanel },
  { id: "users", label: "Users", Component: UsersPanel },
  { id: "jobs", label: "Analyses", Component: JobsPanel },
  { id: "purchases", label: "Purchases", Component: PurchasesPanel },
  { id: "whitelabel", label: "White-label", Component: WhitelabelPanel },
  { id: "admins", label: "Administrators", Component: AdminsPanel },
  { id: "affiliates", label: "Affiliates", Component: AffiliatesPanel },
  { id: "messages", label: "Messages", Component: MessagesPanel },
  { id: "outbox", label: "Mail outbox", Component: OutboxPanel },
  { id: "audit", label: "Audit log", Component: AuditPanel },
];
