/** What a bounce email is */
export type BounceKind = 'failed' | 'delayed' | 'delivered' | 'feedback' | 'auto-reply' | 'not-a-bounce';

/** One recipient as a report names it, before classification */
export interface ReportedRecipient {
  recipient: string;
  action?: string;
  status?: string;
  reply?: string;
  remote_mta?: string;
  /** Where each field came from: a DSN field (`dsn:Status`), a notification field, or a text pattern (`text:postfix`) */
  sources?: Partial<Record<'recipient' | 'action' | 'status' | 'reply' | 'remote_mta', string>>;
}

/** What a feedback report or complaint notification says of one complained-about recipient, and where from */
export interface FeedbackRecipient {
  recipient: string;
  type: string;
  original_mail_from?: string;
  source_ip?: string;
  arrival_date?: string;
  sources: { recipient: string; type: string } & Partial<
    Record<'original_mail_from' | 'source_ip' | 'arrival_date', string>
  >;
}

/** What a feedback report or complaint notification says: its type and the complained-about recipients */
export interface Feedback {
  type: string;
  recipients: string[];
  sources: { type: string; recipients?: string };
  /** Per complained-about recipient, in the order of `recipients` */
  reported?: FeedbackRecipient[];
}

/** What the parsers read from one email */
export interface BounceReport {
  kind: BounceKind;
  format: string;
  recipients: ReportedRecipient[];
  /** Recipients past the cap, neither answered nor classified */
  omitted: number;
  feedback?: Feedback;
}

/** An email as the parsers see it: decoded headers, text, and the report parts */
export interface Email {
  /** Top-level headers, lower-case names, values unfolded, in order */
  header(name: string): string | undefined;
  headers(name: string): string[];
  subject: string;
  /** Sender address, lower case */
  from: string;
  /** Top-level media type, lower case */
  mediaType: string;
  /** `report-type` parameter of a top-level `multipart/report`, lower case */
  reportType: string;
  /** The human-readable text: the plain parts, else the HTML parts as text */
  text: string;
  /** Non-text parts kept for their content (delivery status, feedback report, JSON), decoded as UTF-8 */
  parts: { type: string; content: string }[];
}

/** A non-standard bounce form: recognises its emails and reads their recipients */
export interface BounceForm {
  name: string;
  /** It lists each recipient's reason under its address: a reply it leaves out is no prose after the list */
  listsReasons?: boolean;
  /** The email is of this form */
  detect(email: Email): boolean;
  /** Recipients in order; kind `delayed` when the text says the server still retries */
  read(email: Email): { recipients: ReportedRecipient[]; delayed?: boolean };
}
