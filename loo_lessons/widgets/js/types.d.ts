// The shapes the components share, typed once for `tsc` (make jscheck): the model each gets
// (anywidget's, the static page's or the book's engine's), the traits it syncs, and the data
// Python computes for it to draw (widgets/controllers/*.py). The components name them in JSDoc
// as `import("./types").X`, which bundle.py leaves as the comment it is.

/** The model a component gets: anywidget's get/set/save_changes/on, and in the book's engine
 * `dispatch` (an event to the Python controller), `snapshot` and `progress`. */
export interface Model<T extends object = Record<string, unknown>> {
  get<K extends keyof T & string>(key: K): T[K] | undefined;
  set<K extends keyof T & string>(key: K, value: T[K]): void;
  save_changes(): void;
  on(events: string, callback: (...args: never[]) => void): void;
  off?(events: string, callback: (...args: never[]) => void): void;
  send?(...args: unknown[]): void;
  dispatch?(event: LooEvent | DealEvent): void;
  snapshot?(): Record<string, unknown>;
  progress?(p: Partial<Progress>): void;
}

/** What a component's `render` gets (anywidget's shape). */
export interface RenderProps<T extends object = Record<string, unknown>> {
  model: Model<T>;
  el: HTMLElement;
}

/** "Deal another" (cards.js dealForm): the stepper's and the presenter's `deal` event. */
export interface DealEvent {
  type: "deal";
  seed: number;
  players: number;
  rules: string;
}

/** A long run's progress (the lab). */
export interface Progress {
  done: number;
  total: number;
}

/** A child `h` appends: a node, text, or a (nested) list of them; null, undefined and false
 * are skipped. */
export type Kid = Node | string | number | null | undefined | false | readonly Kid[];

/** The attributes `h` sets: `class`, `text`, `on<event>` handlers and plain attributes (null,
 * undefined and false are skipped, true is an empty attribute). */
export type Attrs = Record<string, unknown>;

/** One card's options (cards.js cardEl, cardRow). */
export interface CardOpts {
  size?: Size;
  onClick?: (code: string | null | undefined) => void;
  focusId?: string;
  key?: string;
  pressed?: boolean;
  badge?: string | null;
  state?: string | null;
  caption?: string;
  ariaLabel?: string;
  role?: string;
  label?: string | null;
}

/** A text button's options (cards.js button). */
export interface ButtonOpts {
  kind?: string | null;
  state?: string | null;
  focusId?: string;
  key?: string | null;
  action?: string;
  pressed?: boolean;
  ariaLabel?: string | null;
  disabled?: boolean;
  ariaDisabled?: boolean;
}

/** One run of a lesson's words: [text, style], style "", "b", "i" or "code". */
export type ProseRun = [string, string];

/** A play in a trick: [seat, card code]. */
export type Play = [number, string];

/** A trick: its plays, or {plays, winner}. */
export type Trick = Play[] | { plays?: Play[]; winner?: number | null };

/** One seat of a table view (explain/table.py table_view). */
export interface Seat {
  seat: number;
  role?: string;
  status?: string;
  declaration?: string | null;
  cards?: (string | null)[] | null;
  n_cards?: number;
  tricks_won?: number;
}

/** A table as Python computed it (explain/table.py table_view, a quiz question's view). */
export interface TableView {
  seats?: Seat[];
  dealer?: number;
  elder?: number;
  miss_holder?: number | null;
  to_act?: number | null;
  turn_up?: string | null;
  trumps?: string;
  pool?: number | null;
  miss?: (string | null)[] | "taken" | null;
  must?: boolean;
  tricks?: Trick[];
  trick?: Trick | null;
  trick_winner?: number | null;
  trick_number?: number;
  phase?: string;
}

/** What a learner's own seat shows in place of its cards (js/play.js). */
export interface OwnSeat {
  seat: number | undefined;
  node: Node | null;
}

/** One choice of a question. */
export interface Choice {
  key: string;
  label?: string;
}

/** A verdict the engine computed: right or wrong, the rule, the reason, the book's words. */
export interface Verdict {
  correct?: boolean;
  rule_id?: string;
  reason?: string;
  quote?: string;
  words?: string;
  book?: string;
}

/** A question of pick or quiz (quiz/*.py): what is asked, its choices and answer. */
export interface Question {
  id?: string;
  kind?: string;
  choices?: Choice[];
  answer?: string[];
}

/** The marks after a check (verdict.js choiceMarks). */
export interface Marks {
  marks: Record<string, string>;
  badges: Record<string, string>;
}

/** Options of verdict.js drawChoices. */
export interface ChoiceOpts {
  marks?: Record<string, string>;
  badges?: Record<string, string>;
  pressed?: string[] | null;
  onPick: (key: string) => void;
  label?: string;
  /** card choices' size (large unless the compact table draws them in the seat: medium) */
  size?: Size;
}

/** An estimate with its interval (sim/coach.py). */
export interface Estimate {
  mean: number;
  low: number;
  high: number;
}

/** The coach's advice (widgets/controllers/coaching.py). */
export interface Advice {
  best?: string;
  forced?: boolean;
  why?: string;
  note?: string;
  rollouts?: number;
  seed?: number;
  moves?: { action: string; label: string; counters: Estimate; looed: Estimate; trick: Estimate; versus_best?: number }[];
}

/** The coach's review after a deal. */
export interface Review {
  threshold?: number;
  mistakes?: number;
  note?: string;
  decisions?: { played?: string; best?: string; cost?: number; mistake?: boolean; words?: string }[];
}

/** The `cards` and `table` components' data. */
export interface CardsData {
  title?: string;
  caption?: string;
  cards?: (string | null)[];
  size?: Size;
  label?: string;
  view?: TableView;
  refused?: string;
}

/** The `cards` component's traits. */
export type CardsTraits = { data?: CardsData };

/** The `table` component's traits: the same. */
export type TableTraits = CardsTraits;

/** A card's size on the page (the presenter's projection adds "huge"). */
export type Size = "small" | "medium" | "large" | "huge";

/** A request a component sends as a synced trait (lab, search, explore, play): its event and a
 * counter, so the same request twice is two. */
export type Request<E> = E & { n: number };

/** A request trait: the last request sent, or none yet (the registry starts it at {}). */
export type Requested<E> = Request<E> | { n?: undefined } | null;

/** The requests a request trait takes, their counter aside: `Requested<E>` → E. */
export type RequestIn<R> = R extends Request<infer E> ? E : never;

/** One group of the lab's rates (sim/lab.py). */
export interface LabRate {
  label: string;
  hands: number;
  took_trick: number;
  looed: number;
  tricks: number;
  net: number;
}

/** The `lab` component's data (widgets/controllers/lab.py). */
export interface LabData {
  settings?: { hands?: number; players?: number; seed?: number; rules?: string; bots?: string; by?: string };
  limits?: { hands: number; players: [number, number] };
  presets?: string[];
  bots?: string[];
  by_options?: string[];
  result?: {
    overview: { hands: number; awarded_rate: string; mean_in_play: string; loo_rate_of_players: string; single_rate: string };
    rates?: LabRate[];
    seconds: number;
  } | null;
  runs?: number;
  live?: boolean;
}

/** The `lab` component's traits. */
export type LabTraits = {
  data?: LabData;
  request?: Requested<LabEvent>;
  progress?: Partial<Progress> | null;
};

/** A question as the search and the quiz draw it: the table, the prompt, each choice's verdict. */
export interface ShownQuestion extends Question {
  view?: TableView;
  prompt?: string;
  verdicts?: Record<string, Verdict>;
  multi?: boolean;
}

/** The `search` component's data (widgets/controllers/search.py). */
export interface SearchData {
  live?: boolean;
  find?: { name?: string; rules?: string; players?: number; start?: number; count?: number };
  compare?: { seed?: number; players?: number };
  searches?: { name: string; words?: string }[];
  presets?: string[];
  not_found?: string;
  found?: {
    seed?: number;
    title?: string;
    description?: string;
    question?: ShownQuestion | null;
    pool?: { working?: { rule_id?: string; text: string }[] } | null;
    yaml?: string;
  } | null;
  comparison?: {
    seed?: number;
    labels?: string[];
    steps?: { step: number; seat: number; legal: Record<string, string[]>; why: string }[];
    parted_at?: number | null;
    money?: ({ seat: number } & Record<string, number>)[];
  } | null;
}

/** The `search` component's traits. */
export type SearchTraits = {
  data?: SearchData;
  request?: Requested<SearchEvent>;
};

/** One rule's line on the practice's last screen (progress/mastery.py summary). */
export interface MasteryRow {
  rule: string;
  words: string;
  sure: number;
  due: boolean;
  due_at: string;
  right: number;
  wrong: number;
  mistakes: { id: string; at: string; page: string; back: string }[];
}

/** The `practice` component's data (widgets/controllers/practice.py). */
export interface PracticeData {
  live?: boolean;
  title?: string;
  rules?: string[] | null;
  n?: number;
  of?: number;
  item?: { rule: string; words: string; question: PickQuestion; back: string } | null;
  picked?: string[];
  current?: string | null;
  result?: { correct: boolean; picked: string[]; missed: string[]; comeback: boolean } | null;
  score?: { right: number; answered: number };
  done?: boolean;
  error?: string | null;
  mastery?: MasteryRow[];
  due?: number;
  record?: Record<string, unknown>;
  refused?: string;
}

/** The `practice` component's traits. */
export type PracticeTraits = {
  data?: PracticeData;
  request?: Requested<PracticeEvent>;
};

/** A pick or quiz question as drawn: the table, the prompt, each choice's verdict, the
 * engine's explanation. */
export interface PickQuestion extends ShownQuestion {
  explanation?: string;
}

/** The `pick` component's data (widgets/controllers/pick.py). */
export interface PickData {
  title?: string;
  question?: PickQuestion;
  after?: ProseRun[][] | null;
}

/** The `pick` component's state, as its reducer (and pick.py) give it. */
export type PickState = {
  picked: string[];
  current: string | null;
  revealed: boolean;
};

/** The `pick` component's traits. */
export type PickTraits = {
  data?: PickData;
  picked?: string[];
  current?: string | null;
  revealed?: boolean;
};

/** One entry field of the pool calculator. */
export interface PoolField {
  id: string;
  label: string;
  seat?: number | null;
  kind?: string;
}

/** The `pool` component's data (widgets/controllers/pool.py). */
export interface PoolData {
  title?: string;
  prompt?: string;
  facts?: string[];
  seats?: { seat: number; label: string; tricks: number | string }[];
  fields?: PoolField[];
  expected?: Record<string, number>;
  working?: { text: string; rule_id?: string }[];
}

/** The pool calculator's state, as its reducer (and pool.py) give it. */
export type PoolState = {
  entries: Record<string, number>;
  checked: boolean;
  revealed: boolean;
};

/** The `pool` component's traits. */
export type PoolTraits = {
  data?: PoolData;
  entries?: Record<string, number | null>;
  checked?: boolean;
  revealed?: boolean;
};

/** One choice the play table offers (a card or a declaration) and whether it is legal. */
export interface PlayChoice {
  key: string;
  label?: string;
  legal?: boolean;
}

/** A forbidden choice with the law that forbids it. */
export interface Forbidden extends Law {
  key: string;
  label?: string;
}

/** A task's score (widgets/controllers/score.py): Python's sentences, drawn as written. */
export interface TaskScore {
  result?: number;
  baseline?: number;
  refused?: number;
  decisions?: number | null;
  coach_choice?: boolean | null;
  mistakes?: number | null;
  text: string;
  parts?: { kind: string; text: string }[];
  /** each star by name, earned or not (controllers/score.py stars), in the order drawn */
  stars?: Record<string, boolean>;
  /** the result in one short line, when Python gives one (else the first part is shown) */
  headline?: string;
}

/** The `play` component's data (widgets/controllers/play.py). */
export interface PlayData {
  title?: string;
  live?: boolean;
  seat?: number;
  players?: number;
  view?: TableView;
  phase?: string;
  my_turn?: boolean;
  over?: boolean;
  prompt?: string;
  cards?: string[];
  kind?: string;
  choices?: PlayChoice[];
  hint?: { legal?: string[]; why?: Law | null; allowed?: { label: string }[]; forbidden?: Forbidden[]; explanation?: string } | null;
  log?: string[];
  since?: string[];
  can_undo?: boolean;
  /** a device passed round (pass-and-play): no undo, start again, review or save here */
  shared?: boolean;
  settlement?: { working?: Working[]; result: number; receives: number; pays: number; next_pool?: number; looed?: boolean } | null;
  message?: string;
  error?: string;
  coach?: Advice | null;
  review?: Review | null;
  task?: { id: string; asks?: string; asked?: string; stand_in?: boolean; refused?: number; score?: TaskScore | null } | null;
  after?: ProseRun[][] | null;
}

/** The play table's traits. */
export type PlayTraits = {
  data?: PlayData;
  request?: Requested<PlayRequest | EveningRequest>;
  show_hint?: boolean;
  tried?: string | null;
  save_name?: string;
};

/** The evening's one request (widgets/controllers/evening.py handle_request). */
export interface EveningRequest {
  type: "next";
}

/** One deal of the evening's ledger (widgets/controllers/evening.py). */
export interface LedgerRow {
  deal: number;
  dealer: number;
  must?: boolean;
  pool: number;
  loo?: number;
  balances: number[];
  change: number[];
  next_pool?: number;
  next_must?: boolean;
  lines?: (Working & { quote?: string; book?: string })[];
}

/** The evening, beside the play table's data. */
export interface Evening {
  deal?: number;
  dealer?: number;
  must?: boolean;
  pool?: number;
  loo?: number;
  /** The seat whose words and line are "you" (null: pass-and-play's pass screen, no seat's). */
  seat?: number | null;
  names?: string[];
  bank?: number;
  balances?: number[];
  total?: number;
  series?: number[][];
  ledger?: LedgerRow[];
  can_next?: boolean;
}

/** The `evening` component's data: the play table's and the evening's. */
export interface EveningData extends PlayData {
  evening?: Evening;
}

/** The `evening` component's traits. */
export type EveningTraits = PlayTraits & { data?: EveningData };

/** One person at a pass-and-play table (widgets/controllers/pass_play.py `_people`): the seat
 * and the name typed, drawn as text. */
export interface PassplayPerson {
  seat: number;
  name: string;
}

/** The pass-and-play set-up form, filled with the evening's (pass_play.py `_setup_form`): a
 * name per seat ("": a bot's seat), the rules' preset, the bots and those to choose from, the
 * stake, the loo and its cap, the seats' bounds and a name's longest. */
export interface PassplaySetup {
  names: string[];
  preset: string;
  bots: string;
  bot_names: string[];
  stake: number;
  loo: "limited" | "unlimited";
  cap: number | null;
  min: number;
  max: number;
  max_name: number;
}

/** The pass screen's data (pass_play.py `_pass_data`): what the whole table may see and no
 * card of any hand; the play table's fields empty. Nothing ({}) before Python first draws. */
export interface PassplayPassData {
  screen?: "pass";
  /** The seat the device is passed to (null: the deal is over), and its player's name. */
  turn?: number | null;
  name?: string | null;
  people?: PassplayPerson[];
  title?: string;
  live?: boolean;
  seat?: null;
  view?: TableView;
  phase?: string;
  my_turn?: false;
  over?: boolean;
  prompt?: string;
  cards?: string[];
  choices?: PlayChoice[];
  hint?: null;
  log?: string[];
  since?: string[];
  can_undo?: false;
  settlement?: { working: Working[]; next_pool: number } | null;
  message?: string | null;
  error?: string | null;
  evening?: Evening;
  setup?: PassplaySetup;
  /** The set-up form open: nobody has moved yet this evening, nor pressed Start. */
  fresh?: boolean;
}

/** The play screen's data (pass_play.py `_data` after `show`): the evening's play table from
 * the seat whose turn it is, its own cards alone, and who is at the table. */
export interface PassplayPlayData extends EveningData {
  screen: "play";
  turn: number;
  name: string;
  people: PassplayPerson[];
  can_undo: false;
}

/** The `passplay` component's data: two shapes, the pass screen's and the play screen's. */
export type PassplayData = PassplayPassData | PassplayPlayData;

/** A request only the pass-and-play table takes (pass_play.py `handle_request`): `show` (the
 * cards of the seat whose turn it is), `start` (the set-up form, START_KEYS, checked by
 * `start_setup`: the preset, bots and loo among the form's own options) and `load` (a saved
 * evening's text, LOAD_KEYS). */
export type PassplayRequest =
  | { type: "show" }
  | { type: "start"; names: string[]; preset: string; bots: string; stake: number; loo: string; cap: number | null; seed?: number }
  | { type: "load"; text: string; name: string };

/** The `passplay` component's traits: the play table's, with its own data and requests beside
 * the play table's and the evening's (undo, restart and review refused by pass_play.py). */
export type PassplayTraits = {
  data?: PassplayData;
  request?: Requested<PassplayRequest | PlayRequest | EveningRequest>;
  show_hint?: boolean;
  tried?: string | null;
  save_name?: string;
};

/** A rule as the engine cites it: its id and name, the plain reason, the book's words. */
export interface Law extends Verdict {
  rule?: string;
}

/** One line of a settlement's working: the words and the rule. */
export interface Working {
  text: string;
  rule_id?: string;
}

/** One step of a deal (explain/steps.py). */
export interface Step {
  kind?: string;
  title?: string;
  text?: string;
  laws?: Law[];
  forbidden?: { key: string; label?: string; law: Law }[];
  working?: Working[];
  view?: TableView;
}

/** What "Deal another" shows and sends (cards.js dealForm). */
export interface DealData {
  seed?: number;
  players?: number;
  presets?: string[];
  rules?: string;
}

/** The `stepper` component's data (widgets/controllers/steps.py). */
export interface StepperData extends DealData {
  title?: string;
  steps?: Step[];
}

/** The `stepper` component's traits. */
export type StepperTraits = {
  data?: StepperData;
  step?: number;
};

/** A select of the explorer: an option (its key, values, value) or a seat's declaration. */
export interface ExploreOption {
  key: string;
  values?: unknown[];
  value?: unknown;
  meaning?: string;
}

/** The `explore` component's data (widgets/controllers/explore.py). */
export interface ExploreData {
  title?: string;
  mode?: string;
  preset?: string | null;
  presets?: string[];
  options?: ExploreOption[];
  declarations?: { seat: number; values?: unknown[]; value?: unknown }[];
  kind?: "pick" | "pool" | "refused" | "explained";
  question?: ShownQuestion;
  pool?: { facts?: string[]; working?: Working[] } | null;
  verdict_refused?: string;
  explained?: string;
  live?: boolean;
}

/** The `explore` component's traits. */
export type ExploreTraits = {
  data?: ExploreData;
  /** The rules trait Python syncs (the component draws `data` only). */
  rules?: Record<string, unknown>;
  request?: Requested<ExploreEvent>;
};

/** The presenter's data (widgets/controllers/present.py). */
export interface PresentData extends DealData {
  title?: string;
  book?: string;
  call?: string;
  steps?: Step[];
}

/** The presenter's state, as its reducer (and present.py) give it. */
export type PresentState = {
  step: number;
  faces: "up" | "hidden";
};

/** The presenter's traits. */
export type PresentTraits = {
  data?: PresentData;
  step?: number;
  faces?: string;
};

/** A quiz question (quiz/schema.py): a pick question with its topic, level and rules. */
export interface QuizQuestion extends PickQuestion {
  id?: string;
  topic?: string;
  level?: number | string;
  preset?: string;
  rule_ids?: string[];
}

/** A pupil's answer to one question. */
export interface QuizResponse {
  picked: string[];
  correct: boolean;
  revealed: boolean;
  seconds?: number;
}

/** The quiz's state, as its reducer (and quiz.py) give it. */
export type QuizState = {
  index: number;
  responses: (QuizResponse | null)[];
  selected: string[];
  inspect: string | null;
};

/** The quiz's data (widgets/controllers/quiz.py). */
export interface QuizData {
  title?: string;
  error?: string;
  live?: boolean;
  banks?: Record<string, QuizQuestion[]>;
  class_code?: string;
  print_key?: boolean;
}

/** The quiz's traits. */
export type QuizTraits = {
  data?: QuizData;
  questions?: QuizQuestion[];
  index?: number;
  responses?: unknown[];
  selected?: string[];
  inspect?: string | null;
  new_request?: number;
  class_request?: string;
  static_page?: boolean;
};

/** One attempt as a pupil exports it (quiz/results.py Submission): a, the attempt's number;
 * k, the keys given to each question (null: not answered); s, the seconds. */
export interface Attempt {
  a: number;
  k: (string | null)[];
  s: (number | null)[];
}

/** A pupil's submission (quiz/results.py Submission.to_json): name, class code, question ids,
 * attempts. */
export interface Submission {
  n: string;
  c: string;
  q: string[];
  t: Attempt[];
}

/** What the engine's worker posts (worker.js): ready, failed, progress, or the answer to a
 * request (id, and result or error). */
export interface WorkerReply {
  type?: "ready" | "failed" | "progress";
  id?: number;
  /** ready: the worker's start, Pyodide's, the package's import (ms); since: when it started
   * (performance.timeOrigin's clock); snapshot: started from the memory snapshot. */
  ms?: number;
  pyodideMs?: number;
  importMs?: number;
  since?: number;
  snapshot?: boolean;
  error?: string;
  result?: string;
  done?: number;
  total?: number;
}

/** What the page posts to the engine's worker: one operation and its JSON-string arguments. */
export interface WorkerRequest {
  id: number;
  op: "run" | "create" | "send" | "drop";
  args: (string | number)[];
}

/** The worker as the page holds it: the port to talk through, its owner for errors. */
export interface WorkerConnection {
  port: MessagePort | Worker;
  owner: SharedWorker | Worker;
  shared: boolean;
}

/** The worker started by the first live widget while the page was read (static.py
 * EARLY_START), with what it said before engine.js took it over. */
export interface EarlyWorker extends WorkerConnection {
  early: MessageEvent[];
  t0: number;
  failed: string | null;
}

/** A controller the engine made: its id and first state, or why not. */
export interface Made {
  id: number;
  state: Record<string, unknown>;
  error?: string;
}

/** The engine's answer to a message: the changed traits, or an error. */
export interface Answered {
  changes?: Record<string, unknown> & { data?: { download?: { name?: string; text?: string } } };
  error?: string;
}

/** A model as the book's engine makes it: anywidget's, with Python in the worker. */
export interface EngineModel extends Model<Record<string, unknown>> {
  off(events: string, callback: (...args: never[]) => void): void;
  send(): void;
  dispatch(event: LooEvent | DealEvent): void;
  snapshot(): Record<string, unknown>;
  progress(p: Partial<Progress>): void;
}

/** The book's engine (engine.js looMakeEngine, `window.looEngine`). */
export interface Engine {
  state: "idle" | "loading" | "ready" | "failed" | "file";
  base: string | null;
  loadMs: number | null;
  ready: Promise<Engine>;
  shared?: boolean;
  workerMs?: number;
  pyodideMs?: number;
  importMs?: number;
  warm?: boolean;
  snapshot?: boolean;
  answered?: number;
  firstLiveMs?: number;
  start(): Promise<Engine>;
  run(name: string, args?: Record<string, unknown>): Promise<unknown>;
  create(kind: string, args: unknown, state: unknown): Promise<Made>;
  send(id: number, message: { sync?: Record<string, unknown>; event?: unknown }): Promise<Answered>;
  drop(id: number): Promise<unknown>;
  onProgress(f: (m: WorkerReply) => void): void;
  model(id: number, state: Record<string, unknown>, onError: (err: string) => void): EngineModel;
  /** An older engine's shape, still accepted by the playground. */
  explain?(text: string): Promise<unknown>;
}

/** A live widget's spec (the page's data-loo-live attribute, widgets/static.py). */
export interface LiveSpec {
  kind: string;
  component: string;
  args?: unknown;
}

/** The snapshot's packer and unpacker (js/snapshot.js, `self.looSnapshot`). */
export interface LooSnapshot {
  pack(snapshot: Uint8Array, wasm: Uint8Array): Uint8Array | null;
  unpack(packed: Uint8Array, wasm: Uint8Array): Uint8Array;
  dataSegment(wasm: Uint8Array): Uint8Array;
}

/** One seat at a class table as the tables service sends it (classroom/tables/referee.py
 * `seat_json`, with the table's `version`): the public facts and this seat's own cards only. */
export interface SeatView {
  table: string;
  version: number;
  number: number;
  deal: number;
  deals: number | null;
  over: boolean;
  waiting: boolean;
  players: number;
  seat: number;
  you: string | null;
  your_turn: boolean;
  to_act: number | null;
  hand: string[];
  put_down: string[];
  legal: { key: string; label: string }[];
  refused: { error: string; law: Law | null; number: number } | null;
  seats: { seat: number; name: string | null; bot: string | null; away: boolean }[];
  public: {
    dealer: number;
    phase: string;
    must: boolean;
    turn_up: string | null;
    trumps: string | null;
    declarations: [number, string][];
    tricks: [number, string][][];
    winners: number[];
    pool: number;
    stake: number;
    loo: number;
    miss_holder: number | null;
  };
  balances: number[];
  pool: number;
  /** The ledger's last deals only (`referee.LEDGER_IN_VIEW`): a view stays small however long
   * the evening; `ledger_deals` counts every deal settled. The last line, once the table has
   * ended, shares out the pool left (`shares`). */
  ledger: {
    deal: number;
    pool: number;
    lines: { text: string; rule_id: string; book: string }[];
    shares?: number[];
    abandoned?: boolean;
  }[];
  ledger_deals: number;
  /** A bots-only table (a demo for the projector): nobody sits there. */
  demo: boolean;
}

/** The `seat` component's data (widgets/controllers/seat.py): the table's code, the seat's
 * view (none before joining), the connection's state in words, a refusal. */
export interface SeatData {
  table?: string;
  view?: SeatView | null;
  status?: string;
  refused?: string;
}

/** The seat's requests (seat.py REQUEST_KEYS): join a table by its code, make a move. */
export type SeatRequest = { type: "join"; table: string } | { type: "move"; key: string };

/** The `seat` component's traits. */
export type SeatTraits = {
  data?: SeatData;
  request?: Requested<SeatRequest>;
};
