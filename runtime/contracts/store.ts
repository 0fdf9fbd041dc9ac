/**
 * The schedule store contract (plugin kind `store`): where the `ip-schedule` API keeps each IP's groupings, with
 * compare-and-set writes. Generated from `spec/contracts/store.yaml`, whose descriptions say what each member does.
 */
export type {
  AppliedPolicy,
  AuditQuery,
  CountBatch,
  CountClaim,
  DateVolume,
  GroupingRecord,
  IpRecord,
  ScheduleDayRecord,
  ScheduleStore,
  StoreChange,
  StoreChangeListener,
  StoredIp,
  WriteCondition,
  WriteOptions,
} from '../../generated/contracts/store.ts';
