/** The render Worker: Queue consumer of render jobs. */
export default {
  async queue(batch) {
    for (const message of batch.messages) message.retry({ delaySeconds: 30 });
  },
} satisfies ExportedHandler<Env>;
