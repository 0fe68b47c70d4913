import { primaryLanguage } from "../kernel/language";

/**
 * The player's few words in the article's language (docs/web.md "The player's words"): one table for
 * the article page, the embed and the studio's article page (player-markup.ts), and for what
 * client/player.ts says as it plays (handed over in the player's data-words). A language not here
 * gets English; the page's lang stays the article's, so the words are marked English then.
 */
export interface PlayerWords {
  /** The controls' group. */
  player: string;
  play: string;
  pause: string;
  back: string;
  forward: string;
  seek: string;
  speed: string;
  /** After the time left: "(-1:05 remaining)". */
  remaining: string;
  /** Between the time played and the whole, in words: "1 minute of 3 minutes". */
  of: string;
  download: string;
  notReady: string;
  cannotPlay: string;
  notLoaded: string;
  playFromHere: string;
  textKeys: string;
  articleText: string;
  /** The embed snippet's iframe title, before the article's: "Listen: {title}". */
  listen: string;
}

const EN: PlayerWords = {
  player: "Player",
  play: "Play",
  pause: "Pause",
  back: "Back 15 seconds",
  forward: "Forward 15 seconds",
  seek: "Seek",
  speed: "Speed",
  remaining: "remaining",
  of: "of",
  download: "Download the MP3",
  notReady: "The narration is not ready yet. Try again in a minute.",
  cannotPlay: "This audio cannot play here.",
  notLoaded: "The audio could not be loaded.",
  playFromHere: "Play from here",
  textKeys: "Enter plays from here. The left and right arrow keys move word by word; Enter on a word plays from that word.",
  articleText: "Article text",
  listen: "Listen",
};

/** Primary language subtag -> the words. */
const WORDS: Record<string, PlayerWords> = {
  en: EN,
  de: {
    player: "Player",
    play: "Abspielen",
    pause: "Pause",
    back: "15 Sekunden zurück",
    forward: "15 Sekunden vor",
    seek: "Position",
    speed: "Tempo",
    remaining: "verbleibend",
    of: "von",
    download: "MP3 herunterladen",
    notReady: "Die Vertonung ist noch nicht fertig. Versuchen Sie es in einer Minute noch einmal.",
    cannotPlay: "Dieses Audio kann hier nicht abgespielt werden.",
    notLoaded: "Das Audio konnte nicht geladen werden.",
    playFromHere: "Ab hier abspielen",
    textKeys: "Eingabe spielt ab hier. Die Pfeiltasten links und rechts gehen Wort für Wort; Eingabe auf einem Wort spielt ab diesem Wort.",
    articleText: "Text des Artikels",
    listen: "Anhören",
  },
  es: {
    player: "Reproductor",
    play: "Reproducir",
    pause: "Pausa",
    back: "Retroceder 15 segundos",
    forward: "Avanzar 15 segundos",
    seek: "Posición",
    speed: "Velocidad",
    remaining: "restantes",
    of: "de",
    download: "Descargar el MP3",
    notReady: "La narración aún no está lista. Vuelva a intentarlo en un minuto.",
    cannotPlay: "Este audio no se puede reproducir aquí.",
    notLoaded: "No se pudo cargar el audio.",
    playFromHere: "Reproducir desde aquí",
    textKeys: "Intro reproduce desde aquí. Las flechas izquierda y derecha avanzan palabra por palabra; Intro sobre una palabra reproduce desde ella.",
    articleText: "Texto del artículo",
    listen: "Escuchar",
  },
  fr: {
    player: "Lecteur",
    play: "Lire",
    pause: "Pause",
    back: "Reculer de 15 secondes",
    forward: "Avancer de 15 secondes",
    seek: "Position",
    speed: "Vitesse",
    remaining: "restantes",
    of: "sur",
    download: "Télécharger le MP3",
    notReady: "La narration n’est pas encore prête. Réessayez dans une minute.",
    cannotPlay: "Cet audio ne peut pas être lu ici.",
    notLoaded: "L’audio n’a pas pu être chargé.",
    playFromHere: "Lire à partir d’ici",
    textKeys: "Entrée lit à partir d’ici. Les flèches gauche et droite avancent mot par mot ; Entrée sur un mot lit à partir de ce mot.",
    articleText: "Texte de l’article",
    listen: "Écouter",
  },
  it: {
    player: "Lettore",
    play: "Riproduci",
    pause: "Pausa",
    back: "Indietro di 15 secondi",
    forward: "Avanti di 15 secondi",
    seek: "Posizione",
    speed: "Velocità",
    remaining: "rimanenti",
    of: "di",
    download: "Scarica l’MP3",
    notReady: "La narrazione non è ancora pronta. Riprova tra un minuto.",
    cannotPlay: "Questo audio non può essere riprodotto qui.",
    notLoaded: "Impossibile caricare l’audio.",
    playFromHere: "Riproduci da qui",
    textKeys: "Invio riproduce da qui. Le frecce sinistra e destra si spostano parola per parola; Invio su una parola riproduce da quella parola.",
    articleText: "Testo dell’articolo",
    listen: "Ascolta",
  },
  pt: {
    player: "Leitor",
    play: "Reproduzir",
    pause: "Pausar",
    back: "Voltar 15 segundos",
    forward: "Avançar 15 segundos",
    seek: "Posição",
    speed: "Velocidade",
    remaining: "restantes",
    of: "de",
    download: "Baixar o MP3",
    notReady: "A narração ainda não está pronta. Tente novamente em um minuto.",
    cannotPlay: "Este áudio não pode ser reproduzido aqui.",
    notLoaded: "Não foi possível carregar o áudio.",
    playFromHere: "Reproduzir a partir daqui",
    textKeys:
      "Enter reproduz a partir daqui. As setas para a esquerda e para a direita avançam palavra por palavra; Enter numa palavra reproduz a partir dela.",
    articleText: "Texto do artigo",
    listen: "Ouvir",
  },
  ru: {
    player: "Плеер",
    play: "Воспроизвести",
    pause: "Пауза",
    back: "Назад на 15 секунд",
    forward: "Вперёд на 15 секунд",
    seek: "Позиция",
    speed: "Скорость",
    remaining: "осталось",
    of: "из",
    download: "Скачать MP3",
    notReady: "Озвучка ещё не готова. Попробуйте через минуту.",
    cannotPlay: "Это аудио нельзя воспроизвести здесь.",
    notLoaded: "Не удалось загрузить аудио.",
    playFromHere: "Воспроизвести отсюда",
    textKeys: "Enter воспроизводит отсюда. Стрелки влево и вправо переходят по словам; Enter на слове воспроизводит с этого слова.",
    articleText: "Текст статьи",
    listen: "Слушать",
  },
  ja: {
    player: "プレーヤー",
    play: "再生",
    pause: "一時停止",
    back: "15秒戻る",
    forward: "15秒進む",
    seek: "再生位置",
    speed: "速度",
    remaining: "残り",
    of: "/",
    download: "MP3をダウンロード",
    notReady: "読み上げはまだ準備中です。1分後にもう一度お試しください。",
    cannotPlay: "この音声はここでは再生できません。",
    notLoaded: "音声を読み込めませんでした。",
    playFromHere: "ここから再生",
    textKeys: "Enterキーでここから再生します。左右の矢印キーで1語ずつ移動し、語の上でEnterキーを押すとその語から再生します。",
    articleText: "記事の本文",
    listen: "聴く",
  },
  ar: {
    player: "المشغّل",
    play: "تشغيل",
    pause: "إيقاف مؤقت",
    back: "رجوع 15 ثانية",
    forward: "تقديم 15 ثانية",
    seek: "الموضع",
    speed: "السرعة",
    remaining: "متبقية",
    of: "من",
    download: "تنزيل ملف MP3",
    notReady: "القراءة الصوتية ليست جاهزة بعد. حاول مرة أخرى بعد دقيقة.",
    cannotPlay: "لا يمكن تشغيل هذا الصوت هنا.",
    notLoaded: "تعذّر تحميل الصوت.",
    playFromHere: "التشغيل من هنا",
    textKeys: "يشغّل مفتاح الإدخال من هنا. ينتقل مفتاحا السهمين الأيمن والأيسر كلمةً كلمة؛ والإدخال على كلمة يشغّل منها.",
    articleText: "نص المقال",
    listen: "استمع",
  },
};

/** The player's words for an article in `language`, and the language they are in. */
export function playerWords(language: string): { words: PlayerWords; language: string } {
  const primary = primaryLanguage(language);
  const words = WORDS[primary];
  return words ? { words, language: primary } : { words: EN, language: "en" };
}

/** What client/player.ts says as it plays, as the player's data-words carries it. */
export function clientWords(words: PlayerWords): Pick<PlayerWords, "play" | "pause" | "of" | "cannotPlay" | "notLoaded" | "playFromHere"> {
  const { play, pause, of, cannotPlay, notLoaded, playFromHere } = words;
  return { play, pause, of, cannotPlay, notLoaded, playFromHere };
}
