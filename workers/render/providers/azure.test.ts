import { describe, expect, it } from "vitest";
import { azureRegionalBaseUrl, azureSynthesizer } from "./azure";
import { VOICES } from "../../kernel/voice-catalogue";
import { fakeFetch, silentFetch, tonePcm16 } from "../../../test/support/fake-fetch";

const jenny = VOICES.find((v) => v.provider === "azure" && v.id === "jenny")!;

describe("Azure AI Speech adapter", () => {
  it("posts SSML (text escaped) to the regional endpoint for raw 24 kHz PCM with the subscription key", async () => {
    const far = fakeFetch(() => new Response(tonePcm16(0.5, 24_000)));
    const result = await azureSynthesizer("az-key", azureRegionalBaseUrl("westeurope"), far.fetch).synthesize(`Tom & Jerry <say> "hi"`, jenny);
    expect(far.sent).toEqual([
      {
        url: "https://westeurope.tts.speech.microsoft.com/cognitiveservices/v1",
        method: "POST",
        headers: {
          "ocp-apim-subscription-key": "az-key",
          "content-type": "application/ssml+xml",
          "x-microsoft-outputformat": "raw-24khz-16bit-mono-pcm",
          "user-agent": "narration-render",
        },
        body:
          '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US">' +
          '<voice name="en-US-JennyNeural">Tom &amp; Jerry &lt;say&gt; &quot;hi&quot;</voice></speak>',
      },
    ]);
    expect(result.ok && result.pcm.samples.length).toBe(12_000);
  });

  it.each([
    [429, "rate_limited"],
    [500, "upstream_5xx"],
    [401, "unauthorized"],
    [400, "rejected"],
  ])("maps HTTP %i to %s", async (status, reason) => {
    const far = fakeFetch(() => new Response("", { status }));
    expect(await azureSynthesizer("az-key", azureRegionalBaseUrl("westeurope"), far.fetch).synthesize("Hi.", jenny)).toMatchObject({ ok: false, reason });
  });

  it("gives up after its timeout", async () => {
    expect(await azureSynthesizer("az-key", azureRegionalBaseUrl("westeurope"), silentFetch, 20).synthesize("Hi.", jenny)).toMatchObject({
      ok: false,
      reason: "timeout",
    });
  });
});
