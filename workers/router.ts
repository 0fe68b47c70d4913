import { buildRouter } from "./core/http";
import type { Route } from "./core/route";
import { resolveBearer } from "./oauth/bearer";

import { getCacheHealth } from "./health/routes/get.health.cache";
import { getHealth } from "./health/routes/get.health";
import { getWorkerHealth } from "./health/routes/get.health.worker";
import { getVersion } from "./health/routes/get.version";

import { getArticleAudio } from "./narration/routes/get.articles.{slug}.audio";
import { audioRoutes } from "./narration/routes/get.audio.{key}.{format}";
import { getAudioManifest } from "./narration/routes/get.audio.{key}.c2pa";
import { getJob } from "./narration/routes/get.jobs.{job_id}";
import { getJobStream } from "./narration/routes/get.jobs.{job_id}.stream.mp3";
import { getVoices } from "./narration/routes/get.voices";
import { postMarksDetect } from "./narration/routes/post.marks.detect";
import { postRenderNow } from "./narration/routes/post.articles.{slug}.render-now";
import { postJob } from "./narration/routes/post.jobs";
import { postRender } from "./narration/routes/post.render";
import { postPublishWebhook } from "./narration/routes/post.webhook.publish";
import { deleteGlobalLexiconEntry } from "./narration/routes/delete.lexicon.entries";
import { getGlobalLexiconAffected } from "./narration/routes/get.lexicon.affected";
import { getGlobalLexicon } from "./narration/routes/get.lexicon.entries";
import { importGlobalLexicon } from "./narration/routes/post.lexicon.import";
import { rerenderGlobalLexicon } from "./narration/routes/post.lexicon.rerender";
import { putGlobalLexiconEntries } from "./narration/routes/put.lexicon.entries";
import { deletePublisherLexiconEntry } from "./narration/routes/delete.publishers.{publisher}.lexicon.entries";
import { getPublisherLexiconAffected } from "./narration/routes/get.publishers.{publisher}.lexicon.affected";
import { getPublisherLexicon } from "./narration/routes/get.publishers.{publisher}.lexicon.entries";
import { importPublisherLexicon } from "./narration/routes/post.publishers.{publisher}.lexicon.import";
import { rerenderPublisherLexicon } from "./narration/routes/post.publishers.{publisher}.lexicon.rerender";
import { putPublisherLexiconEntries } from "./narration/routes/put.publishers.{publisher}.lexicon.entries";
import { previewPublisherLexicon } from "./narration/routes/post.publishers.{publisher}.lexicon.preview";

import { getPublisherStats } from "./stats/routes/get.publishers.{publisher}.stats";
import { postBeacon } from "./stats/routes/post.articles.{slug}.beacons";
import { deletePublisherWebhook } from "./webhooks/routes/delete.publishers.{publisher}.webhooks.{endpoint_id}";
import { listPublisherWebhooks } from "./webhooks/routes/get.publishers.{publisher}.webhooks";
import { getWebhookDeliveries } from "./webhooks/routes/get.publishers.{publisher}.webhooks.deliveries";
import { postPublisherWebhook } from "./webhooks/routes/post.publishers.{publisher}.webhooks";
import { getStudioStats } from "./stats/routes/get.studio.{publisher}.stats";
import { getStudioWebhooks } from "./webhooks/routes/get.studio.{publisher}.webhooks";
import { postStudioWebhook } from "./webhooks/routes/post.studio.{publisher}.webhooks";
import { postStudioWebhookRemove } from "./webhooks/routes/post.studio.{publisher}.webhooks.{endpoint_id}.remove";

import { getArticle } from "./articles/routes/get.articles.{slug}";
import { storiesFeed } from "./articles/routes/get.stories.feed";
import { storiesSearch } from "./articles/routes/get.stories.search";
import { topicArt } from "./articles/routes/get.topic-art";
import { postForward } from "./articles/routes/post.listeners.{token}.forward";
import { postLink } from "./articles/routes/post.listeners.{token}.links";

import { deleteSubscription } from "./listeners/routes/delete.listeners.{token}";
import { revokeAllAgents } from "./listeners/routes/delete.listeners.{token}.agents";
import { revokeAgent } from "./listeners/routes/delete.listeners.{token}.agents.{grant_id}";
import { listAgents } from "./listeners/routes/get.listeners.{token}.agents";
import { getFlo } from "./listeners/routes/get.listener.{token}.flo";
import { getFloNow } from "./listeners/routes/get.listener.{token}.flo.now";
import { getPreferences } from "./listeners/routes/get.listeners.{token}";
import { getListenerFeed } from "./listeners/routes/get.listeners.{token}.feed";
import { getPrivateFeedUrl } from "./listeners/routes/get.listeners.{token}.private-feed";
import { getQueue } from "./listeners/routes/get.listeners.{token}.queue";
import { listVerticals } from "./listeners/routes/get.listeners.verticals";
import { patchPreferences } from "./listeners/routes/patch.listeners.{token}";
import { alphaSignup } from "./listeners/routes/post.alpha.signup";
import { requestListenerMagicLink } from "./listeners/routes/post.auth.listener-magic-link";
import { exchangeListenerMagicLink } from "./listeners/routes/post.auth.listener-magic-link.exchange";
import { paywallClickThrough } from "./listeners/routes/post.listeners.{token}.clickthrough.partner-paywall";
import { rotateToken } from "./listeners/routes/post.listeners.{token}.rotate";
import { subscribeListener } from "./listeners/routes/post.listeners.subscribe";
import { recordPlay } from "./listeners/routes/post.plays";
import { putFlo } from "./listeners/routes/put.listener.{token}.flo";
import { putPreferredVertical } from "./listeners/routes/put.listeners.{token}.preferences.vertical";

import { getUnsubscribe } from "./listeners/routes/get.unsubscribe.{token}";
import { postUnsubscribe } from "./listeners/routes/post.unsubscribe.{token}";

import { listOutbox } from "./mail/routes/get.dev.outbox";

import { getCreatorFeed } from "./feeds/routes/get.podcasts.creator.{tenant_slug}.xml";
import { getDeclassifiedFeed } from "./feeds/routes/get.podcasts.service-declassified.xml";
import { getTopicFeed } from "./feeds/routes/get.podcasts.service-{slug}.xml";
import { getServiceFeed } from "./feeds/routes/get.podcasts.service.xml";
import { getChapters } from "./feeds/routes/get.podcasts.chapters.{slug}.json";
import { getJsonTranscript } from "./feeds/routes/get.podcasts.transcripts.{slug}.json";
import { getTranscript } from "./feeds/routes/get.podcasts.transcripts.{slug}.vtt";
import { getPrivateChapters } from "./feeds/routes/get.podcasts.u.{token}.chapters.{slug}.json";
import { getPrivateJsonTranscript } from "./feeds/routes/get.podcasts.u.{token}.transcripts.{slug}.json";
import { getPrivateTranscript } from "./feeds/routes/get.podcasts.u.{token}.transcripts.{slug}.vtt";
import { getPrivateFeed } from "./feeds/routes/get.podcasts.u.{token}.xml";
import { getTokenFeed } from "./feeds/routes/get.podcasts.{token}.xml";
import { postCreatorClaim } from "./feeds/routes/post.creators.{tenant_slug}.claim";

import { walletAudit } from "./admin/routes/get.admin.circle.wallet-audit";
import { getLedgerReport } from "./admin/routes/get.admin.ledger.report";
import { getSearchCacheStats } from "./admin/routes/get.admin.search-cache.stats";
import { getSearchReindexStatus } from "./admin/routes/get.admin.search.reindex.status";
import { getTrendingCacheStats } from "./admin/routes/get.admin.trending-cache.stats";
import { adminLogin } from "./admin/routes/post.admin.auth.login";
import { exchangeAdminMagicLink } from "./admin/routes/post.admin.auth.magic-link.exchange";
import { requestAdminMagicLink } from "./admin/routes/post.admin.auth.magic-link.request";
import { cleanupCancelledAudio } from "./admin/routes/post.admin.cancelled-audio.cleanup";
import { postAdminCreator } from "./admin/routes/post.admin.creators";
import { runDigest } from "./admin/routes/post.admin.digest.run";
import { preWarmListener } from "./admin/routes/post.admin.listeners.{token}.pre-warm";
import { postSearchReindex } from "./admin/routes/post.admin.search.reindex";
import { revokePublisherKeyRoute } from "./admin/routes/delete.admin.publishers.{publisher}.keys.{key_id}";
import { listPublisherKeys } from "./admin/routes/get.admin.publishers.{publisher}.keys";
import { issuePublisherKeyRoute } from "./admin/routes/post.admin.publishers.{publisher}.keys";
import { issuePublisherWebhookSecret } from "./admin/routes/post.admin.publishers.{publisher}.webhook-secret";

import { getProtectedResourceMetadata } from "./oauth/routes/get.well-known.oauth-protected-resource";
import { AGENT_OPERATIONS } from "./agents/manifests/agent-operations";
import { mcpEndpoint } from "./agents/routes/post.mcp.v1";
import { mcpAtRoot } from "./agents/routes/post.mcp";
import { getDidDocument } from "./agents/routes/get.well-known.did.json";
import { getOpenApi } from "./agents/routes/get.openapi.json";
import { getAgentkitTools } from "./agents/routes/get.well-known.agentkit-tools.json";
import { getMcpManifest } from "./agents/routes/get.well-known.mcp.json";
import { getOpenAiApp } from "./agents/routes/get.well-known.openai-app.yaml";
import { putListenerPlan } from "./admin/routes/put.admin.listeners.{token}.plan";

import { getArticlePage } from "./web/routes/get.articles.{slug}";
import { getAsset } from "./web/routes/get.assets.{file}";
import { getEmbed } from "./web/routes/get.embed.article.{slug}";
import { getFavicon } from "./web/routes/get.favicon.svg";
import { getWebManifest } from "./web/routes/get.manifest.webmanifest";
import { getIntakeConfirm } from "./listeners/routes/get.intake.confirm";
import { getListen } from "./listeners/routes/get.listen";
import { getListenAccount } from "./listeners/routes/get.listen.account";
import { getListenDelete } from "./listeners/routes/get.listen.delete";
import { getListenFlo } from "./listeners/routes/get.listen.flo";
import { getListenQueue } from "./listeners/routes/get.listen.queue";
import { getListenShare } from "./listeners/routes/get.listen.share";
import { postListenLinks } from "./listeners/routes/post.listen.links";
import { getMagic } from "./web/routes/get.magic";
import { getConsent } from "./oauth/routes/get.oauth.authorize";
import { getOembed } from "./web/routes/get.oembed";
// With its extension: wrangler bundles an import ending in .txt as a Text module (its default module rules), which has no getRobots.
import { getRobots } from "./web/routes/get.robots.txt.ts";
import { getSignIn } from "./listeners/routes/get.sign-in";
import { getSignInConfirm } from "./listeners/routes/get.sign-in.confirm";
import { getSitemap } from "./web/routes/get.sitemap.xml";
import { getTopicPage } from "./web/routes/get.topics.{slug}";
import { getErrorsPage } from "./web/routes/get.errors";
import { getHome } from "./web/routes/get";
import { getAuthorizationServerMetadata } from "./oauth/routes/get.well-known.oauth-authorization-server";
import { postIntakeConfirm } from "./listeners/routes/post.intake.confirm";
import { postListenDelete } from "./listeners/routes/post.listen.delete";
import { postListenDigest } from "./listeners/routes/post.listen.digest";
import { postListenFloMove } from "./listeners/routes/post.listen.flo.move";
import { postListenFloOrder } from "./listeners/routes/post.listen.flo.order";
import { postListenRotate } from "./listeners/routes/post.listen.rotate";
import { postListenSubscribe } from "./listeners/routes/post.listen.subscribe";
import { postListenVerticals } from "./listeners/routes/post.listen.verticals";
import { postConsent } from "./oauth/routes/post.oauth.authorize";
import { postOAuthRegister } from "./oauth/routes/post.oauth.register";
import { postOAuthToken } from "./oauth/routes/post.oauth.token";
import { postSignIn } from "./listeners/routes/post.sign-in";
import { postSignInConfirm } from "./listeners/routes/post.sign-in.confirm";
import { postSignOut } from "./listeners/routes/post.sign-out";

import { deletePublisherMember } from "./studio/routes/delete.admin.publishers.{publisher}.members.{email}";
import { getPublisherMembers } from "./studio/routes/get.admin.publishers.{publisher}.members";
import { postPublisherMember } from "./studio/routes/post.admin.publishers.{publisher}.members";
import { patchPublisherSettings } from "./studio/routes/patch.publishers.{publisher}.settings";
import { rejectArticle } from "./studio/routes/post.publishers.{publisher}.articles.{slug}.reject";
import { releaseArticle } from "./studio/routes/post.publishers.{publisher}.articles.{slug}.release";
import { getStudio } from "./studio/routes/get.studio";
import { getStudioSignIn } from "./studio/routes/get.studio.sign-in";
import { getStudioSignInConfirm } from "./studio/routes/get.studio.sign-in.confirm";
import { postStudioSignIn } from "./studio/routes/post.studio.sign-in";
import { postStudioSignInConfirm } from "./studio/routes/post.studio.sign-in.confirm";
import { postStudioSignOut } from "./studio/routes/post.studio.sign-out";
import { getStudioNarrations } from "./studio/routes/get.studio.{publisher}";
import { getStudioArticle } from "./studio/routes/get.studio.{publisher}.articles.{slug}";
import { getStudioArticleAudio } from "./studio/routes/get.studio.{publisher}.articles.{slug}.audio";
import { postStudioRelease } from "./studio/routes/post.studio.{publisher}.articles.{slug}.release";
import { postStudioReject } from "./studio/routes/post.studio.{publisher}.articles.{slug}.reject";
import { postStudioRerender } from "./studio/routes/post.studio.{publisher}.articles.{slug}.rerender";
import { getStudioLexicon } from "./studio/routes/get.studio.{publisher}.lexicon";
import { postStudioLexicon } from "./studio/routes/post.studio.{publisher}.lexicon";
import { getStudioLexiconPreview } from "./studio/routes/get.studio.{publisher}.lexicon.preview";
import { postStudioLexiconRerender } from "./studio/routes/post.studio.{publisher}.lexicon.rerender";
import { getStudioSettings } from "./studio/routes/get.studio.{publisher}.settings";
import { postStudioSettings } from "./studio/routes/post.studio.{publisher}.settings";

/**
 * Every route of the API Worker, grouped by resource: the table of contents of the API and of the
 * web front-end, the Worker's one front door. Each route lives in
 * workers/<domain>/routes/<method>.<path>.ts (docs/architecture.md "Layout"). Order is match order:
 * a fixed path comes before the wildcard that would also match it, and the hot paths (/v1, the
 * feeds, audio) come before the pages, so that no page's pattern is tried before them.
 */
export const routes: Route[] = [
  // Health and build information
  getHealth,
  getVersion,
  getWorkerHealth,
  getCacheHealth,
  // Rendering, jobs, the publish webhook and audio
  postRender,
  postJob,
  getJob,
  getJobStream,
  postPublishWebhook,
  postRenderNow,
  getArticleAudio,
  ...audioRoutes,
  getAudioManifest,
  getVoices,
  // The audio watermark: anyone may ask whether a recording carries it
  postMarksDetect,
  // The pronunciation lexicon: the global one (admin token) and each publisher's (its key or the operator's)
  getGlobalLexicon,
  putGlobalLexiconEntries,
  deleteGlobalLexiconEntry,
  importGlobalLexicon,
  getGlobalLexiconAffected,
  rerenderGlobalLexicon,
  getPublisherLexicon,
  putPublisherLexiconEntries,
  deletePublisherLexiconEntry,
  importPublisherLexicon,
  getPublisherLexiconAffected,
  rerenderPublisherLexicon,
  previewPublisherLexicon,
  // A publisher's settings and the review of its narrations (its key or the operator's; editors in the studio)
  patchPublisherSettings,
  releaseArticle,
  rejectArticle,
  // A publisher's listening numbers (and the embed player's beacons that feed them) and outbound webhooks
  getPublisherStats,
  postBeacon,
  postPublisherWebhook,
  listPublisherWebhooks,
  getWebhookDeliveries,
  deletePublisherWebhook,
  // Articles, search and the stories feed
  getArticle,
  postForward,
  postLink,
  storiesSearch,
  storiesFeed,
  topicArt,
  // Listeners: subscribe and the catalog before /v1/listeners/{token}, which would match them
  alphaSignup,
  subscribeListener,
  listVerticals,
  getPreferences,
  patchPreferences,
  deleteSubscription,
  rotateToken,
  putPreferredVertical,
  getQueue,
  getListenerFeed,
  getPrivateFeedUrl,
  paywallClickThrough,
  getFlo,
  putFlo,
  getFloNow,
  listAgents,
  revokeAllAgents,
  revokeAgent,
  requestListenerMagicLink,
  exchangeListenerMagicLink,
  recordPlay,
  getUnsubscribe,
  postUnsubscribe,
  listOutbox,
  // Podcast feeds: the fixed service paths, then the service-{slug} wildcard, then the paths with
  // their own prefix, and last the bare /v1/podcasts/{token}.xml, which would take every service*.xml
  getServiceFeed,
  getDeclassifiedFeed,
  getTopicFeed,
  getCreatorFeed,
  getPrivateFeed,
  getPrivateTranscript,
  getPrivateJsonTranscript,
  getPrivateChapters,
  getTranscript,
  getJsonTranscript,
  getChapters,
  postCreatorClaim,
  getTokenFeed,
  // Administration (x-service-email-token; throttled per IP by prefix)
  getSearchCacheStats,
  getTrendingCacheStats,
  postSearchReindex,
  getSearchReindexStatus,
  adminLogin,
  requestAdminMagicLink,
  exchangeAdminMagicLink,
  runDigest,
  preWarmListener,
  walletAudit,
  cleanupCancelledAudio,
  postAdminCreator,
  getLedgerReport,
  putListenerPlan,
  issuePublisherKeyRoute,
  listPublisherKeys,
  revokePublisherKeyRoute,
  issuePublisherWebhookSecret,
  postPublisherMember,
  getPublisherMembers,
  deletePublisherMember,
  // Discovery and the agent surface: manifests, the MCP server, each tool as a REST operation
  getOpenApi,
  getProtectedResourceMetadata,
  getMcpManifest,
  getOpenAiApp,
  getAgentkitTools,
  mcpEndpoint,
  mcpAtRoot,
  getDidDocument,
  ...AGENT_OPERATIONS,
  // The web front-end (WEB_URL): pages, their forms and static files; failures render as pages
  getHome,
  getTopicPage,
  getErrorsPage,
  getArticlePage,
  getEmbed,
  getOembed,
  getSitemap,
  getRobots,
  getAsset,
  getFavicon,
  getWebManifest,
  getMagic,
  // Signing in to the web (the session cookie), and the intake address's confirmation
  getSignIn,
  postSignIn,
  getSignInConfirm,
  postSignInConfirm,
  postSignOut,
  getIntakeConfirm,
  postIntakeConfirm,
  // The listener's pages (session: a signed-in listener; browser: signed in or not)
  getListen,
  postListenSubscribe,
  postListenVerticals,
  postListenDigest,
  getListenQueue,
  getListenShare,
  postListenLinks,
  getListenFlo,
  postListenFloOrder,
  postListenFloMove,
  getListenAccount,
  postListenRotate,
  getListenDelete,
  postListenDelete,
  // The publishers' studio: its sign-in before /studio/{publisher}, which would match it
  getStudio,
  getStudioSignIn,
  postStudioSignIn,
  getStudioSignInConfirm,
  postStudioSignInConfirm,
  postStudioSignOut,
  getStudioNarrations,
  getStudioSettings,
  postStudioSettings,
  getStudioStats,
  getStudioWebhooks,
  postStudioWebhook,
  postStudioWebhookRemove,
  getStudioLexicon,
  postStudioLexicon,
  getStudioLexiconPreview,
  postStudioLexiconRerender,
  getStudioArticle,
  getStudioArticleAudio,
  postStudioRelease,
  postStudioReject,
  postStudioRerender,
  // OAuth 2.1 for agents on the issuer's origin: the consent page, then the provider's own endpoints
  getConsent,
  postConsent,
  getAuthorizationServerMetadata,
  postOAuthToken,
  postOAuthRegister,
];

export const router = buildRouter(routes, resolveBearer);
