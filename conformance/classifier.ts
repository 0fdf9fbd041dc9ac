/**
 * The classifier conformance suite: every `kind: 'classifier'` plugin, ours or a user's, must pass it.
 *
 * @example
 * ```ts
 * import { usePlugin } from 'capstan';
 * import { classifierConformance } from 'capstan/conformance';
 * classifierConformance('my-classifier', async () => {
 *   const plugin = await usePlugin({ id: 'my-classifier', path: './my-classifier' });
 *   return { classifier: plugin.service as Classifier, close: plugin.close };
 * });
 * ```
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BACKOFF_CLASSES, BNAC_CLASSES } from '../runtime/mod.ts';
import type { Classification, Classifier, ClassifierModel } from '../runtime/mod.ts';
import { skipsOf } from './_skips.ts';

/** What a factory hands the suite: the classifier under test and how to release it */
export interface ClassifierUnderTest {
  classifier: Classifier;
  close?(): Promise<void>;
}

const CLASSES: Record<ClassifierModel, ReadonlySet<string>> = {
  bnac: new Set(BNAC_CLASSES),
  backoff: new Set(BACKOFF_CLASSES),
};
const MODELS: readonly ClassifierModel[] = ['bnac', 'backoff'];

/** Real-looking bounce replies; each classifier's own `normalise` (when it has one) turns them into its input */
const REPLIES = [
  '451 4.7.1 Greylisting in effect, please come back later',
  "550 5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos - gsmtp",
  '552 5.2.2 Mailbox full: user@example.com has exceeded the storage quota',
  '421 4.7.0 Too many connections from your IP (rate limited), try again later',
  '554 5.7.1 Service unavailable; Client host [192.0.2.7] blocked using zen.spamhaus.org',
  '550 5.7.26 This message does not pass authentication checks (SPF and DKIM both do not pass)',
  '554 5.7.1 Message rejected: virus found in attachment (Eicar-Test-Signature)',
  '530 5.7.0 Must issue a STARTTLS command first',
  '450 4.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages',
  '550 5.7.1 Sender domain has a poor reputation, see https://postmaster.example.net/reputation',
];

/** Inputs that must be classified without an error: edges of Unicode, control bytes, length */
const AWKWARD = [
  '',
  ' ',
  '\u0000',
  'abc\u0000def 550 5_1_1',
  '\ud800 lone surrogate \udfff',
  'ошибка доставки 550 почтовый ящик переполнен',
  '邮件被拒绝 550 用户不存在',
  '🙂🚫📬 550 5_7_1 👎🏽',
  '\u202e\u200b\ufeff right-to-left override',
  'x'.repeat(100_000),
  `${'550 5_1_1 user unknown '.repeat(5_000)}`,
];

function assertValid(model: ClassifierModel, results: readonly Classification[], count: number): void {
  assert.is(results.length, count, 'one result per text');
  for (const result of results) {
    assert.ok(CLASSES[model].has(result.label), `"${result.label}" is not a ${model} class`);
    assert.type(result.probability, 'number');
    assert.ok(
      result.probability >= 0 && result.probability <= 1,
      `probability "${result.probability}" is outside [0, 1]`,
    );
  }
}

/**
 * Registers and runs the suite against the classifier `factory` makes (once, before the first test).
 * `options.skip` maps a test's title, as printed, to the reason it does not apply.
 */
export function classifierConformance(
  name: string,
  factory: () => Promise<ClassifierUnderTest>,
  options?: { skip?: Record<string, string> },
): void {
  const classifierSuite = suite<{ under?: ClassifierUnderTest }>(`classifier conformance: ${name}`, {});
  let SAMPLES: string[] = [];
  classifierSuite.before(async (context) => {
    context.under = await factory();
    const classifier = context.under.classifier;
    SAMPLES = REPLIES.map((reply) =>
      typeof classifier.normalise === 'function' ? classifier.normalise(reply) : reply,
    );
  });
  classifierSuite.after(async (context) => {
    await context.under?.close?.();
  });
  const skips = skipsOf('the classifier conformance suite', options?.skip);
  const define = (title: string, run: (classifier: Classifier) => Promise<void>) => {
    const reason = skips.reason(title);
    if (reason !== undefined) {
      classifierSuite.skip(`${title} (skipped: ${reason})`, () => {});
      return;
    }
    classifierSuite(title, (context) => run(context.under!.classifier));
  };

  define('classifier exposes a version when created', async (classifier) => {
    assert.type(classifier.version, 'string');
    assert.ok(classifier.version.length > 0, 'version is empty');
  });

  define(
    'classifier normalises to the same string every time, never throwing, when it has a normaliser',
    async (classifier) => {
      if (classifier.normalise === undefined) return;
      assert.type(classifier.normalise, 'function', 'normalise is not a function');
      for (const text of [...REPLIES, ...AWKWARD]) {
        const once = classifier.normalise(text);
        assert.type(once, 'string');
        assert.is(classifier.normalise(text), once, `normalise is not a pure function of "${text.slice(0, 40)}"`);
      }
    },
  );

  for (const model of MODELS) {
    define(`classifier answers ${model} classes from the closed list when given bounces`, async (classifier) => {
      assertValid(model, await classifier.classify(model, SAMPLES), SAMPLES.length);
    });

    define(`classifier answers in input order when given a ${model} batch`, async (classifier) => {
      const singles = await Promise.all(SAMPLES.map(async (text) => (await classifier.classify(model, [text]))[0]));
      assert.equal(await classifier.classify(model, SAMPLES), singles);
      const reversed = await classifier.classify(model, [...SAMPLES].reverse());
      assert.equal(reversed.reverse(), singles);
    });

    define(`classifier answers like singles when given a large ${model} batch`, async (classifier) => {
      const texts = Array.from({ length: 2_000 }, (_, i) => `${SAMPLES[i % SAMPLES.length]} ${i % 7}`);
      const batch = await classifier.classify(model, texts);
      assertValid(model, batch, texts.length);
      for (const i of [0, 1, 255, 256, 257, 999, 1_000, 1_999]) {
        assert.equal(batch[i], (await classifier.classify(model, [texts[i]!]))[0], `text ${i}`);
      }
    });

    define(`classifier answers an empty array when given an empty ${model} batch`, async (classifier) => {
      assert.equal(await classifier.classify(model, []), []);
    });

    define(
      `classifier classifies ${model} text when it is empty, odd Unicode, NUL or very long`,
      async (classifier) => {
        assertValid(model, await classifier.classify(model, AWKWARD), AWKWARD.length);
        for (const text of AWKWARD) assertValid(model, await classifier.classify(model, [text]), 1);
      },
    );

    define(`classifier answers the same when asked again for ${model}`, async (classifier) => {
      const first = await classifier.classify(model, SAMPLES);
      const concurrent = await Promise.all([1, 2, 3].map(() => classifier.classify(model, SAMPLES)));
      for (const again of concurrent) assert.equal(again, first);
    });
  }

  // Optional since plugin API 1.3 (`rule`) and 1.6 (`features`): a classifier without `explain` passes
  define(
    'classifier explains as it classifies, naming a rule or weighted features, when it can explain',
    async (classifier) => {
      if (classifier.explain === undefined) return;
      assert.type(classifier.explain, 'function', 'explain is not a function');
      for (const model of MODELS) {
        const classified = await classifier.classify(model, SAMPLES);
        SAMPLES.forEach((text, i) => {
          const explained = classifier.explain!(model, text);
          assert.is(explained.label, classified[i]!.label, `explain and classify disagree on "${text.slice(0, 40)}"`);
          assert.is(explained.probability, classified[i]!.probability, `probability of "${text.slice(0, 40)}"`);
          if (explained.rule !== undefined) assert.type(explained.rule, 'string');
          if (explained.features === undefined) return;
          assert.ok(Array.isArray(explained.features), 'features is not an array');
          for (const { feature, weight } of explained.features) {
            assert.type(feature, 'string');
            assert.ok(Number.isFinite(weight), `weight "${weight}" of "${feature}" is not a finite number`);
          }
          const weights = explained.features.map((f) => f.weight);
          assert.equal(
            weights,
            [...weights].sort((a, b) => b - a),
            'features are not heaviest first',
          );
        });
      }
    },
  );

  define('classifier rejects when its signal is already aborted', async (classifier) => {
    const controller = new AbortController();
    controller.abort();
    let rejected = false;
    await classifier.classify('bnac', SAMPLES, { signal: controller.signal }).catch(() => (rejected = true));
    assert.ok(rejected, 'classify resolved despite an aborted signal');
  });

  skips.checkUsed();
  classifierSuite.run();
}
