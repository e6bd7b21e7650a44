import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { PermanentRefusal, type InboundMail } from './inbound';
import type { Logger } from './logger';

const DAY_MS = 86_400_000;

/**
 * The object-storage source of inbound mail (the spec's receipt rule writes each email to
 * BUCKET_NAME, key = message id; any S3-compatible store with S3_ENDPOINT): every poll lists the
 * bucket, posts each object not yet taken to the platform like an SMTP delivery, and deletes
 * objects older than RAW_MAIL_RETENTION_DAYS (the spec's lifecycle rule). A worker restart posts
 * the kept objects again: the platform answers them as duplicates (Message-ID). An object the
 * platform could not take is tried again at the next poll, unless it was refused for good (left
 * in the bucket until its retention ends, not posted again by this process).
 */
export class BucketSource {
  private readonly taken = new Set<string>();

  constructor(
    private readonly s3: Pick<S3Client, 'send'>,
    private readonly bucket: string,
    private readonly inbound: Pick<InboundMail, 'receive'>,
    private readonly retentionDays: number,
    private readonly logger: Logger,
  ) {}

  async pollOnce(now = Date.now()): Promise<{ posted: number; deleted: number; failed: number }> {
    const counts = { posted: 0, deleted: 0, failed: 0 };
    let token: string | undefined;
    do {
      const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        const key = object.Key;
        if (!key) continue;
        if (object.LastModified && now - object.LastModified.getTime() > this.retentionDays * DAY_MS) {
          await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
          this.taken.delete(key);
          counts.deleted += 1;
          continue;
        }
        if (this.taken.has(key)) continue;
        try {
          const got = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
          const raw = (await got.Body?.transformToString('utf8')) ?? '';
          await this.inbound.receive(raw);
          this.taken.add(key);
          counts.posted += 1;
        } catch (error) {
          counts.failed += 1;
          if (error instanceof PermanentRefusal) {
            this.taken.add(key);
            this.logger.error({ key, err: error.message }, 'bucket email refused for good; not posted again');
          } else {
            this.logger.error({ key, err: (error as Error).message }, 'bucket email not taken; tried again at the next poll');
          }
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return counts;
  }

  /** Polls every `intervalSeconds` from now on; the returned function stops it. */
  startPolling(intervalSeconds: number): () => void {
    let running = false;
    const tick = async () => {
      if (running) return;
      running = true;
      try {
        const counts = await this.pollOnce();
        if (counts.posted || counts.deleted || counts.failed) this.logger.info(counts, 'bucket poll');
      } catch (error) {
        this.logger.error({ err: (error as Error).message }, 'bucket poll failed');
      } finally {
        running = false;
      }
    };
    void tick();
    const timer = setInterval(() => void tick(), intervalSeconds * 1000);
    return () => clearInterval(timer);
  }
}
