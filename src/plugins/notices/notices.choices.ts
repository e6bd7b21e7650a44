/**
 * The notices plugin's choice sets with the colour each value shows in (NetBox's ChoiceSet colours),
 * and the statuses that close an event (its impacts are frozen).
 */
export interface ColouredChoice {
  value: string;
  label: string;
  color: string;
}

export const MAINTENANCE_STATUSES: readonly ColouredChoice[] = [
  { value: 'TENTATIVE', label: 'Tentative', color: 'yellow' },
  { value: 'CONFIRMED', label: 'Confirmed', color: 'green' },
  { value: 'CANCELLED', label: 'Cancelled', color: 'gray' },
  { value: 'IN-PROCESS', label: 'In-Progress', color: 'orange' },
  { value: 'COMPLETED', label: 'Completed', color: 'indigo' },
  { value: 'RE-SCHEDULED', label: 'Rescheduled', color: 'teal' },
  { value: 'UNKNOWN', label: 'Unknown', color: 'blue' },
];

export const OUTAGE_STATUSES: readonly ColouredChoice[] = [
  { value: 'REPORTED', label: 'Reported', color: 'red' },
  { value: 'INVESTIGATING', label: 'Investigating', color: 'orange' },
  { value: 'IDENTIFIED', label: 'Identified', color: 'yellow' },
  { value: 'MONITORING', label: 'Monitoring', color: 'blue' },
  { value: 'RESOLVED', label: 'Resolved', color: 'green' },
];

export const IMPACT_LEVELS: readonly ColouredChoice[] = [
  { value: 'NO-IMPACT', label: 'No Impact', color: 'green' },
  { value: 'REDUCED-REDUNDANCY', label: 'Reduced Redundancy', color: 'yellow' },
  { value: 'DEGRADED', label: 'Degraded', color: 'orange' },
  { value: 'OUTAGE', label: 'Outage', color: 'red' },
];

/** An event in one of these statuses is closed: its impacts can no longer be created, changed or deleted. */
export const CLOSED_EVENT_STATUSES: ReadonlySet<string> = new Set(['RESOLVED', 'COMPLETED', 'CANCELLED']);

/** Statuses the dashboard counts as active. */
export const ACTIVE_MAINTENANCE_STATUSES = ['TENTATIVE', 'CONFIRMED', 'IN-PROCESS', 'RE-SCHEDULED'] as const;
export const ACTIVE_OUTAGE_STATUSES = ['REPORTED', 'INVESTIGATING', 'IDENTIFIED', 'MONITORING'] as const;

export const EVENT_OBJECT_TYPES = ['notices.maintenance', 'notices.outage'] as const;

export const pairs = (choices: readonly ColouredChoice[]) => choices.map(({ value, label }) => [value, label] as const);
export const colourOf = (choices: readonly ColouredChoice[], value: unknown) => choices.find((c) => c.value === value)?.color ?? null;
