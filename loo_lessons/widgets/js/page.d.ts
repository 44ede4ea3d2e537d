// What the book's pages share on `window` (js/engine.js, the components, book/_static): typed
// here once for `tsc` (make jscheck). The shapes the components share are in types.d.ts.

/** A component module's default export (anywidget's shape). */
interface LooComponent {
  render(props: import("./types").RenderProps): void;
  handover?(el: HTMLElement, state: Record<string, unknown>): Record<string, unknown>;
}

interface Window {
  /** The in-page engine (js/engine.js's looMakeEngine). */
  looEngine: import("./types").Engine;
  /** The worker started early by the first live widget (static.EARLY_START). */
  looEngineWorker?: import("./types").EarlyWorker;
  /** Where the engine's files are, when the page says so. */
  LOO_ENGINE_BASE?: string;
  /** The static components on the page: {name, el, model}. */
  looLessons: { name: string; el: HTMLElement; model: import("./types").Model }[];
  /** The widgets the engine made live: {kind, el, model, id}. */
  looLive: { kind: string; el: HTMLElement; model: import("./types").EngineModel; id: number }[];
  /** The component modules by name, for the engine's handover. */
  looComponents: Record<string, LooComponent>;
}

interface WorkerOptions {
  /** Chromium's: a SharedWorker outlives a page navigating to the next. */
  extendedLifetime?: boolean;
}

/** A task's score as the book keeps it (book/_static/loo-book.js): Python's fields, and when. */
interface LooKeptScore {
  result?: number;
  baseline?: number;
  star_count?: number;
  decided_well?: number;
  coach_summary?: string;
  at?: string;
  [field: string]: unknown;
}

/** A task's record: its title, the best attempt and the last. */
interface LooTaskRecord {
  title: string | null;
  best: LooKeptScore | null;
  last: LooKeptScore | null;
}

/** What the book keeps of one lesson in this browser (localStorage, loo-book.js). */
interface LooLessonRecord {
  title?: string;
  url?: string;
  updated?: string;
  answers: Record<string, { correct: boolean; at: string; [detail: string]: unknown }>;
  tasks: Record<string, unknown>;
  components: Record<string, { signature: string; name: string; state: Record<string, unknown> }>;
  stopped: { anchor: string; title: string } | null;
  /** How many graded items the lesson's page holds (its questions, picks and forms). */
  asked?: number;
}

/** One graded answer of loo-progress/1 (book/guides/progress-format.md). */
interface LooAnswer {
  id: string;
  kind: string;
  rules: string[];
  correct: boolean;
  at: string;
  seconds: number | null;
  where: { page: string; back: string };
  missed?: string[];
}

/** The reader's progress (book/_static/loo-book.js `window.looProgress`). */
interface LooProgress {
  lesson(): string | null;
  record(key: string, questionId: string, correct: unknown, detail?: Record<string, unknown>): void;
  task(key: string, taskId: string, score: object, title: string | null): void;
  forget(key: string, questionId: string): void;
  stopped(key: string, anchor: string, title: string): void;
  save(key: string, id: string, state: { signature: string; name: string; state: Record<string, unknown> }): void;
  restore(key: string, id: string): { signature: string; name: string; state: Record<string, unknown> } | null;
  all(): Record<string, LooLessonRecord>;
  reset(key?: string): void;
  onchange(f: () => void): void;
  available(): boolean;
  /** The loo-progress/1 record kept in this browser (the Practice page's), or null. */
  kept(): Record<string, unknown> | null;
  /** Keep a loo-progress/1 record Python made. */
  keep(record: Record<string, unknown>): void;
  /** Add one graded answer (the format's fields, its rules as Python gave them) to the record. */
  answer(entry: LooAnswer): void;
  /** The one line said where live controls need a web server. */
  serveNote?: string;
}

interface Window {
  looProgress: LooProgress;
}
