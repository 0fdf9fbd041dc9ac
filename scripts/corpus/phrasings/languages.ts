import { phrasings } from '../situation.ts';

// The frequent situations in many languages, several wordings per language.
//
// Real receivers answer in their own language: webmail providers, national ISPs, hosting panels, university and
// government servers, localised Exchange/Postfix/Exim deployments. Many drop the reply code, some answer
// bilingually ("Benutzer unbekannt / user unknown"), and the sending side's own notices (connection timed out,
// host unreachable) come out of localised MTAs and webmail bounce pages too. world.ts Part 2 gives one line per
// locale per situation, which let the model learn locale names instead of meanings: when a language has a
// single line per cause, its script and a few signature words identify the line, and a Polish "skrzynka pełna"
// and a Polish "konto zablokowane" look alike to the model. Here every language gets several different wordings
// of each frequent situation (synonyms, formal and informal, webmail and server style, with and without the
// address and the reply code) so that the words that carry the cause are what the model learns.
//
// Families are `lang-<code>`. The lines are written from how such servers word their replies, never from the
// real-mail dev set.
export default [
  // ---------------------------------------------------------------------------------------------------------
  // Recipient side
  // ---------------------------------------------------------------------------------------------------------
  phrasings('recipient-unknown', {
    'lang-de': [
      '{550 5.1.1 |550 |}Empfängeradresse unbekannt: {rcpt}',
      '{550 5.1.1 |}Das Postfach {rcpt} existiert nicht',
      'Die E-Mail-Adresse {rcpt} konnte im Zielsystem nicht gefunden werden. Bitte prüfen Sie die Schreibweise.',
      '{550 |}Kein Postfach mit diesem Namen vorhanden / no such mailbox',
      '{550 5.1.1 |}Empfänger {user} ist auf diesem Server nicht bekannt',
    ],
    'lang-fr': [
      '{550 5.1.1 |550 |}Destinataire inconnu : {rcpt}',
      '{550 5.1.1 |}Boîte aux lettres inexistante pour {rcpt}',
      "L'adresse électronique {rcpt} est introuvable. Vérifiez qu'elle est correctement orthographiée.",
      '{550 |}<{rcpt}> : adresse invalide / invalid address',
      "{550 5.1.1 |}Aucun compte ne correspond à l'adresse {rcpt}",
    ],
    'lang-es': [
      '{550 5.1.1 |}Destinatario desconocido: {rcpt}',
      '{550 5.1.1 |550 |}El buzón {rcpt} no existe',
      'La dirección de correo {rcpt} no es válida o no existe en este servidor.',
      '{550 |}Dirección de destino inexistente / no such user',
    ],
    'lang-es-419': [
      '{550 5.1.1 |550 |}Usuario inexistente: {rcpt}',
      'La casilla de correo {rcpt} no existe. Por favor verifique la dirección.',
      '{550 5.1.1 |}La cuenta de correo no existe en nuestro sistema',
      '{550 |}El destinatario {rcpt} no es válido',
    ],
    'lang-pt-br': [
      '{550 5.1.1 |550 |}Usuário desconhecido: {rcpt}',
      '{550 5.1.1 |}Destinatário inválido / invalid recipient',
      'O endereço de e-mail {rcpt} não foi encontrado. Verifique se foi digitado corretamente.',
      '{550 |}Esta caixa postal não existe: {rcpt}',
    ],
    'lang-pt-pt': [
      '{550 5.1.1 |550 |}Utilizador inexistente',
      '{550 5.1.1 |}Destinatário desconhecido: {rcpt}',
      'O endereço de correio eletrónico {rcpt} não existe neste servidor.',
    ],
    'lang-it': [
      '{550 5.1.1 |}Utente inesistente: {rcpt}',
      '{550 5.1.1 |550 |}Destinatario sconosciuto',
      "La casella di posta {rcpt} non esiste. Verificare l'indirizzo.",
      '{550 |}Indirizzo non valido / invalid recipient',
    ],
    'lang-nl': [
      '{550 5.1.1 |550 |}Onbekende ontvanger: {rcpt}',
      '{550 5.1.1 |}Mailbox bestaat niet',
      'Het adres {rcpt} is niet gevonden. Controleer of het correct is gespeld.',
      '{550 |}Ongeldig e-mailadres / invalid recipient',
    ],
    'lang-pl': [
      '{550 5.1.1 |}Nie ma takiego użytkownika: {user}',
      '{550 5.1.1 |550 |}Nieznany odbiorca: {rcpt}',
      'Skrzynka {rcpt} nie istnieje.',
      '{550 |}Adres odbiorcy jest nieprawidłowy',
    ],
    'lang-cs': [
      '{550 5.1.1 |}Neznámý příjemce <{rcpt}>',
      '{550 5.1.1 |550 |}Schránka {rcpt} neexistuje',
      'E-mailová adresa {rcpt} nebyla nalezena. Zkontrolujte, zda je zadána správně.',
    ],
    'lang-sk': [
      '{550 5.1.1 |550 |}Adresa príjemcu neexistuje',
      '{550 5.1.1 |}Schránka {rcpt} neexistuje / mailbox does not exist',
      'E-mailová adresa {rcpt} nebola nájdená.',
    ],
    'lang-hu': [
      '{550 5.1.1 |550 |}Ismeretlen címzett: {rcpt}',
      '{550 5.1.1 |}Nincs ilyen felhasználó',
      'A megadott e-mail cím ({rcpt}) nem létezik ezen a szerveren.',
      '{550 |}Érvénytelen címzett',
    ],
    'lang-ro': [
      '{550 5.1.1 |550 |}Utilizator inexistent',
      '{550 5.1.1 |}Destinatar necunoscut: {rcpt}',
      'Adresa de e-mail {rcpt} nu a fost găsită pe acest server.',
    ],
    'lang-sv': [
      '{550 5.1.1 |550 |}Okänd mottagare',
      '{550 5.1.1 |}Användaren {rcpt} finns inte',
      'E-postadressen {rcpt} kunde inte hittas. Kontrollera att adressen är rätt stavad.',
    ],
    'lang-no': [
      '{550 5.1.1 |550 |}Ukjent mottaker',
      '{550 5.1.1 |}Brukeren {rcpt} finnes ikke',
      'Adressen {rcpt} ble ikke funnet. Kontroller at den er skrevet riktig.',
    ],
    'lang-da': [
      '{550 5.1.1 |550 |}Ukendt modtager',
      '{550 5.1.1 |}Brugeren {rcpt} findes ikke',
      'E-mailadressen {rcpt} blev ikke fundet. Kontrollér, at adressen er stavet korrekt.',
    ],
    'lang-fi': [
      '{550 5.1.1 |550 |}Tuntematon vastaanottaja',
      '{550 5.1.1 |}Käyttäjää {rcpt} ei löydy',
      'Sähköpostiosoitetta {rcpt} ei ole olemassa. Tarkista osoite.',
    ],
    'lang-tr': [
      '{550 5.1.1 |}Böyle bir kullanıcı yok: {rcpt}',
      '{550 5.1.1 |550 |}Geçersiz alıcı adresi',
      '{rcpt} e-posta adresi bulunamadı. Lütfen adresi kontrol edin.',
    ],
    'lang-el': [
      '{550 5.1.1 |550 |}Άγνωστος παραλήπτης',
      '{550 5.1.1 |}Η διεύθυνση {rcpt} δεν υπάρχει',
      'Δεν βρέθηκε θυρίδα για τη διεύθυνση {rcpt}.',
    ],
    'lang-ru': [
      '{550 5.1.1 |}Нет такого пользователя: {rcpt}',
      '{550 5.1.1 |550 |}Почтовый ящик {rcpt} не существует',
      'Адрес {rcpt} не найден. Проверьте правильность написания адреса.',
      '{550 |}Неверный адрес получателя',
    ],
    'lang-uk': [
      '{550 5.1.1 |550 |}Невідомий одержувач',
      '{550 5.1.1 |}Поштової скриньки {rcpt} не існує',
      'Адресу {rcpt} не знайдено. Перевірте правильність написання.',
    ],
    'lang-zh-cn': [
      '{550 5.1.1 |550 |}收件人地址不存在',
      '{550 |}该用户不存在: {rcpt}',
      '邮箱地址 {rcpt} 不存在，请核对后重新发送',
      '{550 5.1.1 |}无效的收件人 / invalid recipient',
    ],
    'lang-zh-tw': [
      '{550 5.1.1 |550 |}此信箱不存在',
      '{550 |}無此使用者: {rcpt}',
      '收件者地址 {rcpt} 無效，請確認後再寄送',
    ],
    'lang-ja': [
      '{550 5.1.1 |550 |}該当するユーザーは存在しません',
      '{550 |}宛先不明: {rcpt}',
      '宛先のメールアドレス {rcpt} が見つかりませんでした。アドレスをご確認ください。',
      '{550 5.1.1 |}無効な宛先です / invalid recipient',
    ],
    'lang-ko': [
      '{550 5.1.1 |}존재하지 않는 메일 주소입니다',
      '{550 |}수신자를 찾을 수 없습니다: {rcpt}',
      '받는 사람 주소({rcpt})가 올바르지 않습니다. 주소를 확인해 주세요.',
    ],
    'lang-vi': [
      '{550 5.1.1 |550 |}Hộp thư không tồn tại',
      '{550 |}Người nhận không xác định: {rcpt}',
      'Không tìm thấy địa chỉ email {rcpt}. Vui lòng kiểm tra lại địa chỉ.',
    ],
    'lang-id': [
      '{550 5.1.1 |550 |}Pengguna tidak ditemukan',
      '{550 |}Alamat email {rcpt} tidak ada',
      'Penerima {rcpt} tidak dikenal. Periksa kembali penulisan alamat email.',
    ],
    'lang-th': [
      '{550 5.1.1 |550 |}ไม่มีผู้ใช้นี้ในระบบ',
      '{550 |}ที่อยู่อีเมล {rcpt} ไม่ถูกต้อง',
      'ไม่พบกล่องจดหมายของ {rcpt} กรุณาตรวจสอบที่อยู่อีเมลอีกครั้ง',
    ],
    'lang-ar': [
      '{550 5.1.1 |550 |}المستلم غير معروف',
      '{550 |}عنوان البريد الإلكتروني {rcpt} غير صالح',
      'لم يتم العثور على صندوق بريد للعنوان {rcpt}. يرجى التحقق من العنوان.',
    ],
    'lang-he': [
      '{550 5.1.1 |550 |}הנמען אינו מוכר',
      '{550 |}תיבת הדואר {rcpt} אינה קיימת',
      'הכתובת {rcpt} לא נמצאה. אנא בדוק את האיות.',
    ],
    'lang-hi': [
      '{550 5.1.1 |550 |}अज्ञात प्राप्तकर्ता',
      '{550 |}यह ईमेल पता मौजूद नहीं है: {rcpt}',
      'प्राप्तकर्ता का पता {rcpt} नहीं मिला। कृपया पता जाँचें।',
    ],
  }),

  phrasings('mailbox-disabled', {
    'lang-de': [
      '{550 5.2.1 |}Postfach gesperrt / mailbox locked',
      'Das Postfach {rcpt} wurde wegen Inaktivität stillgelegt.',
      '{550 5.2.1 |550 |}Konto deaktiviert: {rcpt}',
      '{550 |}Dieses E-Mail-Konto wurde vom Inhaber gekündigt',
    ],
    'lang-fr': [
      '{550 5.2.1 |550 |}Boîte aux lettres suspendue',
      'Le compte {rcpt} a été fermé.',
      '{550 5.2.1 |}Compte inactif depuis plus de {n} mois, boîte désactivée',
      '{550 |}Ce compte de messagerie a été bloqué / account locked',
    ],
    'lang-es': [
      '{550 5.2.1 |}Cuenta suspendida: {rcpt}',
      'El buzón {rcpt} está desactivado.',
      '{550 5.2.1 |550 |}La cuenta ha sido dada de baja',
    ],
    'lang-es-419': [
      '{550 5.2.1 |550 |}La cuenta se encuentra inactiva',
      'La casilla {rcpt} fue bloqueada por falta de uso.',
      '{550 |}Cuenta deshabilitada por el administrador',
    ],
    'lang-pt-br': [
      '{550 5.2.1 |}Conta bloqueada: {rcpt}',
      'A conta {rcpt} está inativa.',
      '{550 5.2.1 |550 |}Caixa postal suspensa / mailbox suspended',
      'Esta conta foi cancelada pelo usuário.',
    ],
    'lang-pt-pt': [
      '{550 5.2.1 |550 |}Conta desativada / account disabled',
      'A caixa de correio {rcpt} encontra-se suspensa.',
    ],
    'lang-it': [
      '{550 5.2.1 |550 |}Casella disabilitata',
      "L'account {rcpt} è stato sospeso.",
      '{550 |}Casella disattivata per inattività',
      '{550 5.2.1 |}Utente scaduto / account expired',
    ],
    'lang-nl': [
      '{550 5.2.1 |550 |}Account is uitgeschakeld',
      'De mailbox {rcpt} is gedeactiveerd.',
      '{550 |}Dit account is opgeschort',
    ],
    'lang-pl': [
      '{550 5.2.1 |550 |}Konto zostało zawieszone',
      'Skrzynka {rcpt} jest nieaktywna.',
      '{550 |}Konto wyłączone z powodu braku aktywności',
      '{550 5.2.1 |}Konto zostało zamknięte przez właściciela',
    ],
    'lang-cs': ['{550 5.2.1 |550 |}Účet je deaktivován', 'Schránka {rcpt} byla zrušena.', '{550 |}Účet je pozastaven'],
    'lang-sk': [
      '{550 5.2.1 |550 |}Účet je zablokovaný',
      'Schránka {rcpt} je deaktivovaná.',
      '{550 |}Konto bolo zrušené pre neaktivitu',
    ],
    'lang-hu': [
      '{550 5.2.1 |550 |}A fiók felfüggesztve',
      'A(z) {rcpt} postafiók inaktív.',
      '{550 |}A felhasználói fiók zárolva van',
    ],
    'lang-ro': [
      '{550 5.2.1 |550 |}Contul este dezactivat',
      'Căsuța {rcpt} a fost suspendată.',
      '{550 |}Cont blocat / account locked',
    ],
    'lang-sv': [
      '{550 5.2.1 |550 |}Kontot är spärrat',
      'Brevlådan {rcpt} är avstängd.',
      '{550 |}Kontot har avslutats av användaren',
    ],
    'lang-no': [
      '{550 5.2.1 |550 |}Kontoen er deaktivert',
      'Postkassen {rcpt} er sperret.',
      '{550 |}Kontoen er stengt på grunn av manglende bruk',
    ],
    'lang-da': [
      '{550 5.2.1 |550 |}Kontoen er spærret',
      'Postkassen {rcpt} er lukket.',
      '{550 |}Kontoen er deaktiveret af administratoren',
    ],
    'lang-fi': [
      '{550 5.2.1 |550 |}Tili on suljettu',
      'Postilaatikko {rcpt} on poistettu käytöstä.',
      '{550 |}Käyttäjätili on lukittu',
    ],
    'lang-tr': [
      '{550 5.2.1 |}Hesap devre dışı bırakıldı: {rcpt}',
      '{rcpt} hesabı uzun süredir kullanılmadığı için kapatıldı.',
      '{550 |}Kullanıcı hesabı pasif durumda',
    ],
    'lang-el': [
      '{550 5.2.1 |550 |}Ο λογαριασμός έχει απενεργοποιηθεί',
      'Ο λογαριασμός {rcpt} έχει ανασταλεί.',
      '{550 |}Η θυρίδα είναι κλειδωμένη',
    ],
    'lang-ru': [
      '{550 5.2.1 |}Почтовый ящик {rcpt} заморожен',
      'Ящик {rcpt} отключён из-за длительного неиспользования.',
      '{550 |}Учётная запись заблокирована администратором',
      '{550 5.2.1 |550 |}Ящик получателя временно заблокирован',
    ],
    'lang-uk': [
      '{550 5.2.1 |550 |}Поштову скриньку вимкнено',
      'Обліковий запис {rcpt} призупинено.',
      '{550 |}Скриньку заморожено через тривалу неактивність',
    ],
    'lang-zh-cn': [
      '{550 5.2.1 |550 |}该邮箱已停用',
      '{550 |}收件人帐号长期未登录，已被冻结',
      '用户 {rcpt} 的帐户已被锁定',
      '{550 5.2.1 |}邮箱已过期 / mailbox expired',
    ],
    'lang-zh-tw': ['{550 5.2.1 |550 |}此帳號已停用', '{550 |}使用者 {rcpt} 的信箱已被凍結', '帳號已被暫停使用'],
    'lang-ja': [
      '{550 5.2.1 |550 |}アカウントが無効になっています',
      '{550 |}宛先 {rcpt} は利用停止中です',
      'このメールアカウントは凍結されています',
      '長期間利用されていないため、このアカウントは停止されました',
    ],
    'lang-ko': [
      '{550 5.2.1 |550 |}사용이 정지된 계정입니다',
      '{550 |}받는 사람 {rcpt}의 계정이 비활성화되었습니다',
      '장기간 사용하지 않아 휴면 처리된 계정입니다',
    ],
    'lang-vi': [
      '{550 5.2.1 |550 |}Tài khoản đã bị vô hiệu hóa',
      '{550 |}Tài khoản {rcpt} đang bị tạm ngưng',
      'Hộp thư đã bị khóa do không sử dụng trong thời gian dài',
    ],
    'lang-id': [
      '{550 5.2.1 |550 |}Akun ditangguhkan',
      '{550 |}Kotak surat {rcpt} tidak aktif',
      'Akun penerima telah diblokir',
    ],
    'lang-th': ['{550 5.2.1 |550 |}บัญชีถูกระงับการใช้งาน', '{550 |}บัญชี {rcpt} ถูกปิดใช้งาน', 'บัญชีผู้ใช้นี้ถูกล็อก'],
    'lang-ar': [
      '{550 5.2.1 |550 |}الحساب معطل',
      '{550 |}تم تعليق حساب المستلم {rcpt}',
      'صندوق البريد مقفل / mailbox locked',
    ],
    'lang-he': ['{550 5.2.1 |550 |}החשבון מושבת', '{550 |}החשבון {rcpt} הושעה', 'תיבת הדואר נעולה'],
    'lang-hi': [
      '{550 5.2.1 |550 |}खाता निष्क्रिय है',
      '{550 |}प्राप्तकर्ता {rcpt} का खाता निलंबित कर दिया गया है',
      'यह मेलबॉक्स बंद कर दिया गया है',
    ],
  }),

  phrasings('mailbox-full', {
    'lang-de': [
      '{552 5.2.2 |452 4.2.2 |}Speicherplatz des Postfachs überschritten',
      'Das Postfach von {rcpt} hat die maximale Größe erreicht.',
      '{552 |}Quota überschritten / quota exceeded',
      'Postfach voll - der Empfänger kann derzeit keine Nachrichten empfangen',
    ],
    'lang-fr': [
      '{552 5.2.2 |452 4.2.2 |}Quota de la boîte dépassé',
      'La boîte de réception de {rcpt} est pleine.',
      '{552 |}Espace de stockage insuffisant dans la boîte du destinataire',
    ],
    'lang-es': [
      '{552 5.2.2 |452 4.2.2 |}Cuota de buzón excedida',
      'El buzón de {rcpt} está lleno.',
      '{552 |}No queda espacio en el buzón del destinatario',
    ],
    'lang-es-419': [
      '{552 5.2.2 |552 |}Casilla llena',
      'La casilla de correo de {rcpt} superó su capacidad.',
      '{452 4.2.2 |}El buzón alcanzó el límite de almacenamiento',
    ],
    'lang-pt-br': [
      '{552 5.2.2 |452 4.2.2 |}Cota de armazenamento excedida',
      'A caixa postal de {rcpt} está cheia.',
      '{552 |}Espaço de armazenamento esgotado',
    ],
    'lang-pt-pt': [
      '{552 5.2.2 |552 |}Quota excedida',
      'A caixa de correio de {rcpt} está cheia.',
      '{452 4.2.2 |}Sem espaço disponível na caixa de correio',
    ],
    'lang-it': [
      '{552 5.2.2 |452 4.2.2 |552 |}La casella ha superato la quota assegnata',
      'La casella di {rcpt} è piena.',
      '{552 |}Spazio su disco esaurito per la casella del destinatario',
    ],
    'lang-nl': [
      '{552 5.2.2 |452 4.2.2 |}Quotum van de mailbox overschreden',
      'De mailbox van {rcpt} zit vol.',
      '{552 |}Onvoldoende opslagruimte in de mailbox',
    ],
    'lang-pl': [
      '{552 5.2.2 |452 4.2.2 |}Brak wolnego miejsca w skrzynce odbiorcy',
      'Skrzynka {rcpt} jest przepełniona.',
      '{552 |}Przekroczono przydział dyskowy / quota exceeded',
    ],
    'lang-cs': [
      '{552 5.2.2 |452 4.2.2 |552 |}Překročena kvóta schránky',
      'Schránka {rcpt} je zaplněná.',
      '{552 |}Nedostatek místa ve schránce příjemce',
    ],
    'lang-sk': [
      '{552 5.2.2 |552 |}Prekročená kvóta',
      'Schránka {rcpt} je plná.',
      '{452 4.2.2 |}Nedostatok miesta v schránke',
    ],
    'lang-hu': [
      '{552 5.2.2 |552 |}Túllépte a tárhelykvótát',
      'A(z) {rcpt} postafiókja megtelt.',
      '{452 4.2.2 |}Nincs elég tárhely a postafiókban',
    ],
    'lang-ro': [
      '{552 5.2.2 |552 |}Cota depășită',
      'Căsuța de e-mail a lui {rcpt} este plină.',
      '{452 4.2.2 |}Spațiu de stocare insuficient',
    ],
    'lang-sv': [
      '{552 5.2.2 |552 |}Kvoten är överskriden',
      'Mottagarens brevlåda ({rcpt}) är full.',
      '{452 4.2.2 |}Inte tillräckligt med lagringsutrymme',
    ],
    'lang-no': [
      '{552 5.2.2 |552 |}Kvoten er overskredet',
      'Postkassen til {rcpt} er full.',
      '{452 4.2.2 |}Ikke nok lagringsplass i postkassen',
    ],
    'lang-da': [
      '{552 5.2.2 |552 |}Modtagerens postkasse har overskredet sin kvote',
      'Postkassen for {rcpt} er fuld.',
      '{452 4.2.2 |}Der er ikke mere plads i postkassen',
    ],
    'lang-fi': [
      '{552 5.2.2 |552 |}Kiintiö ylitetty',
      'Vastaanottajan {rcpt} postilaatikko on täynnä.',
      '{452 4.2.2 |}Tallennustila ei riitä',
    ],
    'lang-tr': [
      '{552 5.2.2 |}Posta kutusu kotası aşıldı',
      '{rcpt} kullanıcısının posta kutusu dolu.',
      '{452 4.2.2 |}Posta kutusunda yeterli alan yok',
    ],
    'lang-el': [
      '{552 5.2.2 |552 |}Υπέρβαση ορίου αποθηκευτικού χώρου',
      'Το γραμματοκιβώτιο του {rcpt} είναι γεμάτο.',
      '{452 4.2.2 |}Η θυρίδα έχει υπερβεί το όριο χωρητικότητας',
    ],
    'lang-ru': [
      '{552 5.2.2 |452 4.2.2 |}Превышена квота почтового ящика',
      'Недостаточно места в ящике {rcpt}.',
      '{552 |}Ящик получателя заполнен / mailbox is full',
      'Письмо не доставлено: у адресата закончилось место в ящике',
    ],
    'lang-uk': [
      '{552 5.2.2 |552 |}Перевищено квоту',
      'Скринька {rcpt} заповнена.',
      '{452 4.2.2 |}Недостатньо місця в поштовій скриньці',
    ],
    'lang-zh-cn': [
      '{552 5.2.2 |452 4.2.2 |552 |}邮箱容量超限',
      '{552 |}用户 {rcpt} 空间不足',
      '对方邮箱已满，无法接收新邮件',
    ],
    'lang-zh-tw': [
      '{552 5.2.2 |552 |}信箱容量已超過限制',
      '收件者 {rcpt} 的信箱空間不足',
      '{452 4.2.2 |}信箱已滿，暫時無法收信',
    ],
    'lang-ja': [
      '{552 5.2.2 |452 4.2.2 |552 |}メールボックスの容量制限を超過しました',
      '宛先 {rcpt} のメールボックスが容量オーバーです',
      '{552 |}ディスク容量が不足しているため受信できません',
    ],
    'lang-ko': [
      '{552 5.2.2 |}메일함 용량이 초과되어 수신할 수 없습니다',
      '받는 사람 {rcpt}의 메일함이 가득 찼습니다',
      '{452 4.2.2 |}저장 공간이 부족하여 메일을 받을 수 없습니다',
    ],
    'lang-vi': [
      '{552 5.2.2 |552 |}Vượt quá dung lượng hộp thư',
      'Hộp thư của {rcpt} đã đầy.',
      '{452 4.2.2 |}Không đủ dung lượng lưu trữ',
    ],
    'lang-id': [
      '{552 5.2.2 |552 |}Kuota penyimpanan terlampaui',
      'Kotak surat {rcpt} sudah penuh.',
      '{452 4.2.2 |}Ruang penyimpanan tidak mencukupi',
    ],
    'lang-th': [
      '{552 5.2.2 |552 |}เกินโควตาพื้นที่จัดเก็บ',
      'กล่องจดหมายของ {rcpt} เต็มแล้ว',
      '{452 4.2.2 |}พื้นที่กล่องจดหมายไม่เพียงพอ',
    ],
    'lang-ar': [
      '{552 5.2.2 |552 |}تم تجاوز الحصة المسموح بها لصندوق البريد',
      'صندوق بريد {rcpt} ممتلئ',
      '{452 4.2.2 |}لا توجد مساحة تخزين كافية',
    ],
    'lang-he': [
      '{552 5.2.2 |552 |}חריגה ממכסת האחסון',
      'תיבת הדואר של {rcpt} מלאה',
      '{452 4.2.2 |}אין מספיק מקום בתיבת הדואר',
    ],
    'lang-hi': [
      '{552 5.2.2 |552 |}मेलबॉक्स भर गया है',
      'प्राप्तकर्ता {rcpt} का मेलबॉक्स कोटा पार हो गया है',
      '{452 4.2.2 |}भंडारण स्थान पर्याप्त नहीं है',
    ],
  }),

  phrasings('recipient-domain-not-found', {
    'lang-de': [
      'Die Domain {domain} existiert nicht.',
      'Zustellung an {rcpt} nicht möglich: Der Domainname konnte nicht aufgelöst werden',
      '{550 5.1.2 |}Zieldomain nicht gefunden / host or domain name not found',
      'Für die Domain {domain} wurde kein Mailserver gefunden (DNS-Fehler)',
    ],
    'lang-fr': [
      'Domaine {domain} inexistant',
      "{550 5.1.2 |}Le domaine du destinataire n'existe pas",
      'Échec de la résolution DNS pour {domain} : domaine introuvable',
    ],
    'lang-es': [
      'El dominio {domain} no se ha encontrado',
      '{550 5.1.2 |}Dominio de destino inexistente',
      'No se pudo resolver el nombre de dominio {domain}',
    ],
    'lang-es-419': [
      'El dominio {domain} no existe o no tiene servidor de correo',
      'Error de DNS: no se encontró el dominio {domain}',
    ],
    'lang-pt-br': [
      'Domínio {domain} inexistente',
      '{550 5.1.2 |}O domínio do destinatário não existe',
      'Falha na consulta DNS: domínio {domain} não encontrado',
    ],
    'lang-pt-pt': ['O domínio {domain} não existe', 'Não foi possível resolver o domínio {domain}'],
    'lang-it': [
      'Dominio {domain} inesistente',
      '{550 5.1.2 |}Il dominio del destinatario non è stato trovato',
      'Impossibile risolvere il nome di dominio {domain}',
    ],
    'lang-nl': [
      'Domein {domain} niet gevonden',
      '{550 5.1.2 |}Het domein van de ontvanger bestaat niet',
      'DNS-fout: de domeinnaam {domain} kon niet worden opgezocht',
    ],
    'lang-pl': [
      'Nie znaleziono domeny {domain}',
      '{550 5.1.2 |}Domena odbiorcy nie istnieje',
      'Błąd DNS: nie można odnaleźć domeny {domain}',
    ],
    'lang-cs': ['Doména {domain} nebyla nalezena', '{550 5.1.2 |}Doména příjemce neexistuje'],
    'lang-sk': ['Zadaná doména {domain} neexistuje', 'Doménu {domain} sa nepodarilo nájsť v DNS'],
    'lang-hu': ['A(z) {domain} domain nem létezik', 'A címzett domainje nem található: {domain}'],
    'lang-ro': ['Domeniul {domain} nu există', 'Domeniul destinatarului nu a fost găsit în DNS: {domain}'],
    'lang-sv': ['Domänen {domain} finns inte', 'Domänen {domain} kunde inte hittas i DNS'],
    'lang-no': ['Domenet {domain} finnes ikke', 'Fant ikke domenet {domain}'],
    'lang-da': ['Domænet {domain} findes ikke', 'Domænet {domain} kunne ikke findes'],
    'lang-fi': ['Verkkotunnusta {domain} ei ole olemassa', 'Verkkotunnusta {domain} ei löytynyt'],
    'lang-tr': ['{domain} alan adı mevcut değil', 'Alıcının alan adı çözümlenemedi: {domain}'],
    'lang-el': ['Ο τομέας {domain} δεν υπάρχει', 'Δεν βρέθηκε ο τομέας {domain}'],
    'lang-ru': [
      'Домен {domain} не существует',
      'Домен получателя {domain} не найден в DNS',
      '{550 5.1.2 |}Домен получателя не существует',
    ],
    'lang-uk': ['Домен {domain} не існує', 'Не вдалося знайти домен {domain}'],
    'lang-zh-cn': ['域名 {domain} 不存在', '找不到收件人域名 {domain} 的邮件服务器'],
    'lang-zh-tw': ['網域 {domain} 不存在', '找不到收件者的網域 {domain}'],
    'lang-ja': ['ドメイン {domain} は存在しません', '宛先ドメイン {domain} の名前解決に失敗しました'],
    'lang-ko': ['도메인 {domain}이(가) 존재하지 않습니다', '수신 도메인 {domain}의 DNS 조회에 실패했습니다'],
    'lang-vi': ['Tên miền {domain} không tồn tại', 'Không phân giải được tên miền {domain}'],
    'lang-id': ['Domain {domain} tidak ditemukan', 'Domain {domain} tidak ada'],
    'lang-th': ['ไม่พบโดเมน {domain}', 'โดเมน {domain} ไม่มีอยู่จริง'],
    'lang-ar': ['النطاق {domain} غير موجود', 'تعذر العثور على النطاق {domain}'],
    'lang-he': ['הדומיין {domain} אינו קיים', 'הדומיין {domain} לא נמצא'],
    'lang-hi': ['डोमेन {domain} मौजूद नहीं है', 'डोमेन {domain} नहीं मिला'],
  }),

  // ---------------------------------------------------------------------------------------------------------
  // Blocks and content
  // ---------------------------------------------------------------------------------------------------------
  phrasings('policy-block', {
    'lang-de': [
      '{550 5.7.1 |554 |}Annahme verweigert',
      '{554 5.7.1 |}Die Zustellung wurde durch eine Richtlinie des Empfängersystems verhindert',
      'Zugriff nicht gestattet / access denied',
      '{550 |}Nachricht nicht zugelassen',
    ],
    'lang-fr': [
      '{550 5.7.1 |554 |}Réception refusée : accès non autorisé',
      '{554 5.7.1 |}Message rejeté : non autorisé par la politique de sécurité',
      "Vous n'êtes pas autorisé à envoyer des messages à ce destinataire",
    ],
    'lang-es': [
      '{550 5.7.1 |554 |}Acceso denegado por política',
      '{554 |}Mensaje rechazado: no permitido',
      'No tiene permiso para enviar mensajes a este destinatario',
    ],
    'lang-es-419': ['{554 5.7.1 |554 |}Mensaje rechazado por políticas de seguridad', '{550 |}Envío no autorizado'],
    'lang-pt-br': [
      '{550 5.7.1 |554 |}Acesso negado pelo servidor de destino',
      '{554 |}Mensagem recusada pelas políticas de segurança',
      'Você não tem permissão para enviar mensagens para este destinatário',
    ],
    'lang-pt-pt': ['{554 5.7.1 |554 |}Mensagem rejeitada por política do servidor', '{550 |}Acesso recusado'],
    'lang-it': [
      '{550 5.7.1 |554 |}Accesso negato dal server di posta',
      '{554 |}Messaggio rifiutato: non consentito dalle policy del server',
      'Non sei autorizzato a inviare messaggi a questo destinatario',
    ],
    'lang-nl': [
      '{550 5.7.1 |554 |}Toegang tot deze ontvanger geweigerd',
      '{554 |}Bericht geweigerd: niet toegestaan',
      'U bent niet gemachtigd om berichten naar deze ontvanger te sturen',
    ],
    'lang-pl': [
      '{550 5.7.1 |554 |}Brak uprawnień - odmowa dostępu',
      '{554 |}Wiadomość odrzucona: niedozwolona przez zasady serwera',
    ],
    'lang-cs': ['{550 5.7.1 |554 |}Přístup k serveru odepřen', '{554 |}Zpráva zamítnuta bezpečnostní politikou'],
    'lang-sk': [
      '{550 5.7.1 |554 |}Prístup zamietnutý',
      '{554 5.7.1 |}Správa bola odmietnutá na základe pravidiel servera',
    ],
    'lang-hu': ['{550 5.7.1 |554 |}Hozzáférés megtagadva', '{554 |}Az üzenet nem engedélyezett'],
    'lang-ro': ['{550 5.7.1 |554 |}Acces interzis', '{554 5.7.1 |}Mesaj respins conform politicii serverului'],
    'lang-sv': ['{550 5.7.1 |554 |}Åtkomst nekad', '{554 5.7.1 |}Meddelandet avvisades enligt lokal policy'],
    'lang-no': ['{550 5.7.1 |554 |}Tilgang nektet', '{554 5.7.1 |}Meldingen ble avvist av sikkerhetsregler'],
    'lang-da': ['{550 5.7.1 |554 |}Adgang nægtet', '{554 5.7.1 |}Meddelelsen blev afvist på grund af lokal politik'],
    'lang-fi': ['{550 5.7.1 |554 |}Pääsy estetty', '{554 5.7.1 |}Viesti hylättiin käytäntöjen perusteella'],
    'lang-tr': [
      '{550 5.7.1 |554 |}Erişim reddedildi, ileti kabul edilmedi',
      '{554 |}Bu alıcıya ileti gönderme izniniz yok',
    ],
    'lang-el': ['{550 5.7.1 |554 |}Δεν επιτρέπεται η πρόσβαση', '{554 5.7.1 |}Το μήνυμα απορρίφθηκε λόγω πολιτικής'],
    'lang-ru': [
      '{550 5.7.1 |554 |}Отказано в доступе',
      '{554 5.7.1 |}Письмо отклонено правилами безопасности',
      'Отправка сообщений на этот адрес запрещена',
    ],
    'lang-uk': ['{550 5.7.1 |554 |}Доступ заборонено', '{554 5.7.1 |}Лист відхилено згідно з політикою сервера'],
    'lang-zh-cn': ['{550 5.7.1 |554 |}拒绝访问', '{554 |}根据安全策略，该邮件被拒收', '您没有权限向该收件人发送邮件'],
    'lang-zh-tw': ['{550 5.7.1 |554 |}拒絕存取', '{554 |}郵件因政策規定被拒收'],
    'lang-ja': [
      '{550 5.7.1 |554 |}アクセスが拒否されました',
      '{554 |}このメールはセキュリティポリシーにより受信できません',
    ],
    'lang-ko': ['{550 5.7.1 |554 |}접근이 거부되었습니다', '{554 |}보안 정책에 따라 메일이 차단되었습니다'],
    'lang-vi': ['{550 5.7.1 |554 |}Truy cập bị từ chối', '{554 5.7.1 |}Thư bị từ chối theo chính sách của máy chủ'],
    'lang-id': ['{550 5.7.1 |554 |}Akses ditolak', '{554 5.7.1 |}Pesan ditolak karena kebijakan server'],
    'lang-th': ['{550 5.7.1 |554 |}ปฏิเสธการเข้าถึง', '{554 5.7.1 |}ข้อความถูกปฏิเสธตามนโยบายของเซิร์ฟเวอร์'],
    'lang-ar': ['{550 5.7.1 |554 |}تم رفض الوصول', '{554 5.7.1 |}تم رفض الرسالة وفقاً لسياسة الخادم'],
    'lang-he': ['{550 5.7.1 |554 |}הגישה נדחתה', '{554 5.7.1 |}ההודעה נדחתה עקב מדיניות השרת'],
    'lang-hi': ['{550 5.7.1 |554 |}पहुँच अस्वीकृत', '{554 5.7.1 |}सर्वर नीति के कारण संदेश अस्वीकार किया गया'],
  }),

  phrasings('sender-domain-blocked', {
    'lang-de': [
      '{550 5.7.1 |}Absenderdomain {sdomain} ist gesperrt',
      '{550 |}E-Mails der Domain {sdomain} werden nicht angenommen',
    ],
    'lang-fr': ["{550 5.7.1 |}Le domaine de l'expéditeur {sdomain} est bloqué"],
    'lang-es': ['{550 5.7.1 |}El dominio remitente {sdomain} está bloqueado'],
    'lang-it': ['{550 5.7.1 |}Dominio mittente {sdomain} bloccato'],
    'lang-pl': ['{550 |}Domena nadawcy {sdomain} jest zablokowana'],
  }),
  phrasings('sender-blocked', {
    'lang-de': [
      '{550 5.7.1 |553 |}Absenderadresse ist gesperrt',
      '{550 5.7.1 |}Der Empfänger hat Ihre Adresse {sender} blockiert',
      'Ihre Absenderadresse steht auf der Sperrliste des Empfängers.',
      '{553 5.1.8 |}Ungültige Absenderadresse',
    ],
    'lang-fr': [
      "{550 5.7.1 |553 |}L'adresse de l'expéditeur est bloquée",
      "{550 5.7.1 |}L'adresse {sender} figure dans la liste des expéditeurs bloqués du destinataire",
      "{553 5.1.8 |}Domaine de l'expéditeur inexistant",
    ],
    'lang-es': [
      '{550 5.7.1 |553 |}Remitente bloqueado por el destinatario',
      '{550 |}La dirección {sender} está en la lista de remitentes bloqueados',
      '{553 5.1.8 |}Dominio del remitente inexistente',
    ],
    'lang-es-419': ['{550 5.7.1 |}El destinatario bloqueó los mensajes de {sender}', '{553 |}Remitente no válido'],
    'lang-pt-br': [
      '{550 5.7.1 |553 |}Endereço do remetente bloqueado',
      '{550 |}O endereço {sender} está na lista de remetentes bloqueados',
      '{553 5.1.8 |}Domínio do remetente não existe',
    ],
    'lang-pt-pt': [
      '{550 5.7.1 |553 |}O remetente {sender} foi bloqueado pelo destinatário',
      '{553 |}Remetente inválido',
    ],
    'lang-it': [
      '{550 5.7.1 |553 |}Indirizzo del mittente bloccato',
      "{550 |}L'indirizzo {sender} è nella lista dei mittenti bloccati",
      '{553 5.1.8 |}Dominio del mittente inesistente',
    ],
    'lang-nl': [
      '{550 5.7.1 |553 |}Afzenderadres is geblokkeerd',
      '{550 |}Het adres {sender} staat op de lijst met geblokkeerde afzenders',
      '{553 5.1.8 |}Domein van de afzender bestaat niet',
    ],
    'lang-pl': [
      '{550 5.7.1 |553 |}Adres nadawcy został zablokowany',
      '{550 |}Adres {sender} znajduje się na liście zablokowanych nadawców',
      '{553 5.1.8 |}Domena nadawcy nie istnieje',
    ],
    'lang-cs': [
      '{550 5.7.1 |553 |}Odesílatel {sender} je na seznamu blokovaných odesílatelů',
      '{553 5.1.8 |}Doména odesílatele neexistuje',
    ],
    'lang-sk': ['{550 5.7.1 |553 |}Odosielateľ je zablokovaný', '{550 |}Adresát zablokoval správy od {sender}'],
    'lang-hu': [
      '{550 5.7.1 |553 |}A feladó le van tiltva',
      '{550 |}A(z) {sender} cím szerepel a címzett tiltólistáján',
    ],
    'lang-ro': [
      '{550 5.7.1 |553 |}Expeditorul este blocat',
      '{550 |}Adresa {sender} se află în lista expeditorilor blocați',
    ],
    'lang-sv': ['{550 5.7.1 |553 |}Avsändaren är blockerad', '{550 |}Mottagaren har blockerat {sender}'],
    'lang-no': ['{550 5.7.1 |553 |}Avsenderen er blokkert', '{550 |}Mottakeren har blokkert {sender}'],
    'lang-da': ['{550 5.7.1 |553 |}Afsenderen er blokeret', '{550 |}Modtageren har blokeret {sender}'],
    'lang-fi': ['{550 5.7.1 |553 |}Lähettäjä on estetty', '{550 |}Vastaanottaja on estänyt osoitteen {sender}'],
    'lang-tr': ['{550 5.7.1 |553 |}Gönderen adresi engellenmiş', '{553 5.1.8 |}Gönderen alan adı mevcut değil'],
    'lang-el': [
      '{550 5.7.1 |553 |}Ο αποστολέας έχει αποκλειστεί',
      '{550 |}Ο παραλήπτης έχει μπλοκάρει τη διεύθυνση {sender}',
    ],
    'lang-ru': [
      '{550 5.7.1 |553 |}Адрес отправителя в чёрном списке получателя',
      '{553 5.1.8 |}Недопустимый адрес отправителя',
      'Получатель запретил приём писем от {sender}',
    ],
    'lang-uk': ['{550 5.7.1 |553 |}Відправника заблоковано', '{550 |}Одержувач заблокував листи від {sender}'],
    'lang-zh-cn': ['{550 5.7.1 |553 |}发件人已被收件人拒收', '{553 |}发件人地址无效', '{sender} 已被对方加入黑名单'],
    'lang-zh-tw': ['{550 5.7.1 |553 |}寄件者已被封鎖', '{550 |}收件者已將 {sender} 列入封鎖名單'],
    'lang-ja': [
      '{550 5.7.1 |553 |}送信者がブロックされています',
      '{550 |}受信者の設定により {sender} からのメールは受信できません',
    ],
    'lang-ko': ['{550 5.7.1 |553 |}차단된 발신자입니다', '{550 |}받는 사람이 {sender}의 메일을 수신 차단했습니다'],
    'lang-vi': ['{550 5.7.1 |553 |}Người gửi đã bị chặn', '{550 |}Người nhận đã chặn thư từ {sender}'],
    'lang-id': ['{550 5.7.1 |553 |}Pengirim diblokir', '{550 |}Penerima telah memblokir {sender}'],
    'lang-th': ['{550 5.7.1 |553 |}ผู้ส่งถูกบล็อก', '{550 |}ผู้รับได้บล็อกอีเมลจาก {sender}'],
    'lang-ar': ['{550 5.7.1 |553 |}تم حظر المرسل', '{550 |}قام المستلم بحظر الرسائل الواردة من {sender}'],
    'lang-he': ['{550 5.7.1 |553 |}השולח חסום', '{550 |}הנמען חסם הודעות מ-{sender}'],
    'lang-hi': ['{550 5.7.1 |553 |}प्रेषक अवरुद्ध है', '{550 |}प्राप्तकर्ता ने {sender} से आने वाले संदेशों को अवरुद्ध कर दिया है'],
  }),

  phrasings('spam-content', {
    'lang-de': [
      '{550 5.7.1 |554 |}Verdacht auf Spam, Nachricht abgelehnt',
      '{554 5.7.1 |}Unerwünschte Werbung (Spam) erkannt',
      'Der Inhalt Ihrer Nachricht wurde als verdächtig eingestuft.',
      '{550 |}Spam-Bewertung zu hoch ({n} Punkte)',
    ],
    'lang-fr': [
      '{550 5.7.1 |554 |}Message considéré comme indésirable',
      '{554 5.7.1 |}Contenu suspect, message refusé',
      'Votre message a été bloqué par le filtre antispam du destinataire',
      '{554 |}Pourriel détecté',
    ],
    'lang-es': [
      '{550 5.7.1 |554 |}Mensaje considerado correo no deseado',
      '{554 |}Contenido sospechoso detectado',
      'El filtro antispam ha bloqueado su mensaje',
    ],
    'lang-es-419': [
      '{554 5.7.1 |554 |}Su mensaje fue clasificado como spam',
      '{550 |}El contenido del correo parece sospechoso',
    ],
    'lang-pt-br': [
      '{550 5.7.1 |554 |}A mensagem foi considerada spam e recusada',
      '{554 |}Conteúdo suspeito detectado',
      'Sua mensagem foi bloqueada pelo filtro anti-spam',
    ],
    'lang-pt-pt': [
      '{554 5.7.1 |554 |}Mensagem classificada como correio não solicitado (spam)',
      'A mensagem foi rejeitada pelo filtro anti-spam',
    ],
    'lang-it': [
      '{550 5.7.1 |554 |}Messaggio considerato spam',
      '{554 |}Contenuto sospetto, messaggio rifiutato',
      'Il filtro antispam ha bloccato il messaggio',
    ],
    'lang-nl': [
      '{550 5.7.1 |554 |}Bericht als spam herkend',
      '{554 |}Verdachte inhoud gedetecteerd',
      'Uw bericht is tegengehouden door het spamfilter',
    ],
    'lang-pl': [
      '{550 5.7.1 |554 |}Wiadomość zakwalifikowana jako spam',
      '{554 |}Podejrzana treść wiadomości',
      'Filtr antyspamowy odrzucił wiadomość',
    ],
    'lang-cs': [
      '{550 5.7.1 |554 |}Zpráva označena jako spam',
      '{554 |}Podezřelý obsah zprávy',
      'Antispamový filtr zprávu zamítl',
    ],
    'lang-sk': ['{550 5.7.1 |554 |}Správa bola vyhodnotená ako spam', '{554 |}Podozrivý obsah správy'],
    'lang-hu': ['{550 5.7.1 |554 |}Az üzenet kéretlen levélnek (spam) minősült', '{554 |}Gyanús tartalom'],
    'lang-ro': ['{550 5.7.1 |554 |}Mesajul a fost considerat spam', '{554 |}Conținut suspect detectat'],
    'lang-sv': ['{550 5.7.1 |554 |}Meddelandet klassades som skräppost', '{554 |}Misstänkt innehåll'],
    'lang-no': ['{550 5.7.1 |554 |}Meldingen ble klassifisert som søppelpost', '{554 |}Mistenkelig innhold'],
    'lang-da': ['{550 5.7.1 |554 |}Meddelelsen er klassificeret som spam', '{554 |}Mistænkeligt indhold'],
    'lang-fi': ['{550 5.7.1 |554 |}Viesti luokiteltiin roskapostiksi', '{554 |}Epäilyttävä sisältö'],
    'lang-tr': [
      '{550 5.7.1 |554 |}İleti istenmeyen posta olarak değerlendirildi',
      '{554 |}Şüpheli içerik tespit edildi',
    ],
    'lang-el': ['{550 5.7.1 |554 |}Το μήνυμα θεωρήθηκε ανεπιθύμητο', '{554 |}Εντοπίστηκε ύποπτο περιεχόμενο'],
    'lang-ru': [
      '{550 5.7.1 |554 |}Письмо распознано как спам',
      '{554 |}Подозрительное содержимое письма',
      'Ваше письмо заблокировано спам-фильтром получателя',
    ],
    'lang-uk': ['{550 5.7.1 |554 |}Лист схожий на спам', '{554 |}Виявлено підозрілий вміст'],
    'lang-zh-cn': [
      '{550 5.7.1 |554 |}邮件内容疑似垃圾邮件',
      '{554 |}邮件被反垃圾系统拦截',
      '发送的邮件包含可疑内容，已被拒收',
    ],
    'lang-zh-tw': ['{550 5.7.1 |554 |}疑似垃圾郵件，已拒收', '{554 |}郵件內容可疑'],
    'lang-ja': [
      '{550 5.7.1 |554 |}スパムメールの疑いがあるため受信を拒否しました',
      '{554 |}不審な内容が含まれています',
    ],
    'lang-ko': ['{550 5.7.1 |554 |}스팸 메일로 판단되었습니다', '{554 |}의심스러운 내용이 포함되어 있습니다'],
    'lang-vi': ['{550 5.7.1 |554 |}Thư bị nghi là thư rác', '{554 |}Nội dung thư đáng ngờ'],
    'lang-id': ['{550 5.7.1 |554 |}Pesan dianggap spam', '{554 |}Konten mencurigakan terdeteksi'],
    'lang-th': ['{550 5.7.1 |554 |}ตรวจพบว่าเป็นอีเมลขยะ', '{554 |}ตรวจพบเนื้อหาที่น่าสงสัย'],
    'lang-ar': ['{550 5.7.1 |554 |}تم اعتبار الرسالة بريداً عشوائياً', '{554 |}محتوى مشبوه'],
    'lang-he': ['{550 5.7.1 |554 |}ההודעה זוהתה כספאם', '{554 |}תוכן חשוד'],
    'lang-hi': ['{550 5.7.1 |554 |}संदेश को स्पैम माना गया', '{554 |}संदिग्ध सामग्री पाई गई'],
  }),

  phrasings('other-content', {
    'lang-de': [
      '{552 5.3.4 |552 |}Die Nachricht ist zu groß (maximal {n} MB)',
      '{554 5.7.1 |550 |}Dateianhang nicht zulässig',
      'Die Nachrichtengröße überschreitet das Limit des Empfängers.',
      '{550 5.6.0 |}Ungültiger Nachrichtenkopf: Absender (From) fehlt',
    ],
    'lang-fr': [
      '{552 5.3.4 |552 |}Taille du message supérieure à la limite autorisée',
      '{554 5.7.1 |}Type de pièce jointe non autorisé',
      'Le message dépasse la taille maximale de {n} Mo',
    ],
    'lang-es': [
      '{552 5.3.4 |552 |}Mensaje rechazado por exceder el tamaño permitido',
      '{554 5.7.1 |}Tipo de archivo adjunto no permitido',
      'El tamaño del mensaje supera el límite de {n} MB',
    ],
    'lang-es-419': [
      '{552 |}El correo excede el tamaño máximo permitido',
      '{554 5.7.1 |}No se permiten archivos adjuntos de este tipo',
    ],
    'lang-pt-br': [
      '{552 5.3.4 |552 |}O tamanho da mensagem excede o limite',
      '{554 5.7.1 |}Tipo de anexo não permitido',
      'Anexo bloqueado: extensão de arquivo não permitida',
    ],
    'lang-pt-pt': ['{552 5.3.4 |552 |}Mensagem demasiado grande', '{554 5.7.1 |}Tipo de anexo não autorizado'],
    'lang-it': [
      '{552 5.3.4 |552 |}La dimensione del messaggio supera il limite consentito',
      '{554 5.7.1 |}Tipo di allegato non consentito',
    ],
    'lang-nl': [
      '{552 5.3.4 |552 |}Het bericht overschrijdt de maximale grootte',
      '{554 5.7.1 |}Bijlagen van dit type zijn niet toegestaan',
    ],
    'lang-pl': [
      '{552 5.3.4 |552 |}Rozmiar wiadomości przekracza dopuszczalny limit',
      '{554 5.7.1 |}Niedozwolony typ załącznika',
    ],
    'lang-cs': [
      '{552 5.3.4 |552 |}Velikost zprávy překračuje povolený limit',
      '{554 5.7.1 |}Tento typ přílohy není povolen',
    ],
    'lang-sk': ['{552 5.3.4 |552 |}Správa je príliš veľká', '{554 5.7.1 |}Typ prílohy nie je povolený'],
    'lang-hu': [
      '{552 5.3.4 |552 |}Az üzenet mérete meghaladja a megengedett határt',
      '{554 5.7.1 |}Nem engedélyezett melléklettípus',
    ],
    'lang-ro': [
      '{552 5.3.4 |552 |}Mesajul depășește dimensiunea maximă permisă',
      '{554 5.7.1 |}Tipul atașamentului nu este permis',
    ],
    'lang-sv': ['{552 5.3.4 |552 |}Meddelandet är för stort', '{554 5.7.1 |}Bilagor av denna typ är inte tillåtna'],
    'lang-no': ['{552 5.3.4 |552 |}Meldingen er for stor', '{554 5.7.1 |}Vedleggstypen er ikke tillatt'],
    'lang-da': [
      '{552 5.3.4 |552 |}Meddelelsen er for stor',
      '{554 5.7.1 |}Vedhæftede filer af denne type er ikke tilladt',
    ],
    'lang-fi': ['{552 5.3.4 |552 |}Viesti on liian suuri', '{554 5.7.1 |}Liitetiedoston tyyppi ei ole sallittu'],
    'lang-tr': ['{552 5.3.4 |552 |}İleti çok büyük', '{554 5.7.1 |}Bu ek türüne izin verilmiyor'],
    'lang-el': ['{552 5.3.4 |552 |}Το μήνυμα είναι πολύ μεγάλο', '{554 5.7.1 |}Ο τύπος του συνημμένου δεν επιτρέπεται'],
    'lang-ru': [
      '{552 5.3.4 |552 |}Слишком большой размер письма',
      '{554 5.7.1 |}Недопустимый тип вложения',
      'Размер сообщения превышает {n} МБ',
    ],
    'lang-uk': ['{552 5.3.4 |552 |}Лист завеликий', '{554 5.7.1 |}Тип вкладення заборонено'],
    'lang-zh-cn': ['{552 5.3.4 |552 |}信件体积过大，无法投递', '{554 5.7.1 |}附件类型不允许'],
    'lang-zh-tw': ['{552 5.3.4 |552 |}郵件大小超過上限', '{554 5.7.1 |}不允許的附件類型'],
    'lang-ja': [
      '{552 5.3.4 |552 |}メールのサイズが大きすぎます',
      '{554 5.7.1 |}この種類の添付ファイルは受信できません',
    ],
    'lang-ko': ['{552 5.3.4 |552 |}메일 크기가 너무 큽니다', '{554 5.7.1 |}허용되지 않는 첨부 파일 형식입니다'],
    'lang-vi': ['{552 5.3.4 |552 |}Thư vượt quá kích thước cho phép', '{554 5.7.1 |}Loại tệp đính kèm không được phép'],
    'lang-id': ['{552 5.3.4 |552 |}Ukuran pesan terlalu besar', '{554 5.7.1 |}Jenis lampiran tidak diizinkan'],
    'lang-th': ['{552 5.3.4 |552 |}ข้อความมีขนาดใหญ่เกินไป', '{554 5.7.1 |}ไม่อนุญาตไฟล์แนบประเภทนี้'],
    'lang-ar': ['{552 5.3.4 |552 |}حجم الرسالة كبير جداً', '{554 5.7.1 |}نوع المرفق غير مسموح به'],
    'lang-he': ['{552 5.3.4 |552 |}ההודעה גדולה מדי', '{554 5.7.1 |}סוג הקובץ המצורף אינו מורשה'],
    'lang-hi': ['{552 5.3.4 |552 |}संदेश बहुत बड़ा है', '{554 5.7.1 |}इस प्रकार के अनुलग्नक की अनुमति नहीं है'],
  }),

  phrasings('virus', {
    'lang-de': [
      '{554 5.7.0 |550 |}Schadsoftware erkannt ({virus})',
      'Die E-Mail wurde abgewiesen, weil sie einen Virus enthält.',
    ],
    'lang-fr': [
      '{554 5.7.0 |550 |}Le message contient un virus ({virus})',
      'Logiciel malveillant détecté dans une pièce jointe',
    ],
    'lang-es': ['{554 5.7.0 |550 |}Virus encontrado: {virus}', 'El mensaje contiene software malicioso'],
    'lang-es-419': [
      '{554 |}Se detectó un virus en el archivo adjunto ({virus})',
      'El mensaje fue rechazado porque contiene un virus',
    ],
    'lang-pt-br': ['{554 5.7.0 |550 |}Vírus detectado: {virus}', 'A mensagem contém software malicioso'],
    'lang-pt-pt': ['{554 |}Foi detetado um vírus na mensagem ({virus})', '{550 |}Mensagem infetada, entrega recusada'],
    'lang-it': ['{554 5.7.0 |550 |}Trovato virus: {virus}', 'Il messaggio contiene malware'],
    'lang-nl': ['{554 5.7.0 |550 |}Bericht bevat een virus ({virus})', 'Malware aangetroffen in bijlage'],
    'lang-pl': ['{554 5.7.0 |550 |}Wiadomość zawiera wirusa ({virus})', 'Wykryto złośliwe oprogramowanie'],
    'lang-cs': ['{554 5.7.0 |550 |}Zpráva obsahuje virus: {virus}', 'Zjištěn škodlivý kód'],
    'lang-sk': ['{554 5.7.0 |554 |}Zistený vírus: {virus}', 'Správa obsahuje škodlivý softvér'],
    'lang-hu': [
      '{554 5.7.0 |554 |}Vírust találtunk az üzenetben: {virus}',
      'Az üzenet kártevőt tartalmaz, kézbesítése elutasítva',
    ],
    'lang-ro': ['{554 5.7.0 |554 |}Virus detectat: {virus}', 'Mesajul conține un virus și a fost respins'],
    'lang-sv': ['{554 5.7.0 |554 |}Virus hittat: {virus}', 'Meddelandet innehåller skadlig kod'],
    'lang-no': ['{554 5.7.0 |554 |}Virus funnet: {virus}', 'Meldingen inneholder skadelig programvare'],
    'lang-da': ['{554 5.7.0 |554 |}Virus fundet: {virus}', 'Meddelelsen indeholder skadelig software'],
    'lang-fi': ['{554 5.7.0 |554 |}Viestistä löytyi virus: {virus}', 'Viesti sisältää haittaohjelman'],
    'lang-tr': ['{554 5.7.0 |554 |}Virüs tespit edildi: {virus}', 'İleti zararlı yazılım içeriyor, reddedildi'],
    'lang-el': ['{554 5.7.0 |554 |}Εντοπίστηκε ιός: {virus}', 'Το μήνυμα περιέχει κακόβουλο λογισμικό'],
    'lang-ru': ['{554 5.7.0 |550 |}В письме найден вирус {virus}', 'Письмо содержит вредоносное вложение'],
    'lang-uk': ['{554 5.7.0 |554 |}Виявлено вірус: {virus}', 'Лист містить шкідливе програмне забезпечення'],
    'lang-zh-cn': ['{554 5.7.0 |554 |}检测到病毒: {virus}', '邮件附件含有病毒，已被拦截'],
    'lang-zh-tw': ['{554 5.7.0 |554 |}偵測到病毒: {virus}', '郵件含有病毒，已被退回'],
    'lang-ja': [
      '{554 5.7.0 |554 |}ウイルスを検知したため受信を拒否しました: {virus}',
      '添付ファイルからウイルスが検出されました',
    ],
    'lang-ko': [
      '{554 5.7.0 |554 |}악성 코드가 감지되었습니다 ({virus})',
      '첨부 파일에서 바이러스가 발견되어 수신이 거부되었습니다',
    ],
    'lang-vi': ['{554 5.7.0 |554 |}Phát hiện virus: {virus}', 'Thư chứa phần mềm độc hại'],
    'lang-id': ['{554 5.7.0 |554 |}Virus terdeteksi: {virus}', 'Pesan mengandung malware'],
    'lang-th': ['{554 5.7.0 |554 |}ตรวจพบไวรัส: {virus}', 'ข้อความมีมัลแวร์ ถูกปฏิเสธ'],
    'lang-ar': ['{554 5.7.0 |554 |}تم اكتشاف فيروس: {virus}', 'تحتوي الرسالة على برنامج ضار'],
    'lang-he': ['{554 5.7.0 |554 |}נמצא וירוס: {virus}', 'ההודעה מכילה תוכנה זדונית'],
    'lang-hi': ['{554 5.7.0 |554 |}वायरस पाया गया: {virus}', 'संदेश में मैलवेयर पाया गया'],
  }),

  // ---------------------------------------------------------------------------------------------------------
  // Temporary conditions and volume
  // ---------------------------------------------------------------------------------------------------------
  phrasings('temporary-failure', {
    'lang-de': [
      '{451 4.3.0 |450 |}Temporärer Fehler, bitte später nochmal versuchen',
      '{451 |}Dienst vorübergehend nicht verfügbar',
      '{451 4.3.0 |}Lokaler Verarbeitungsfehler, Zustellung verschoben',
    ],
    'lang-fr': [
      '{451 4.3.0 |450 |}Erreur temporaire, réessayez ultérieurement',
      '{451 |}Service momentanément indisponible',
      '{451 4.3.0 |}Erreur interne du serveur, merci de renouveler votre envoi plus tard',
    ],
    'lang-es': [
      '{451 4.3.0 |450 |}Error temporal, vuelva a intentarlo más tarde',
      '{451 |}Servicio no disponible temporalmente',
    ],
    'lang-es-419': [
      '{451 4.3.0 |451 |}Falla temporal del servidor, intente nuevamente más tarde',
      '{450 |}Error local al procesar el mensaje, reintente luego',
    ],
    'lang-pt-br': [
      '{451 4.3.0 |450 |}Falha temporária, tente novamente mais tarde',
      '{451 |}Serviço temporariamente indisponível',
    ],
    'lang-pt-pt': [
      '{451 4.3.0 |451 |}Erro temporário, tente mais tarde',
      '{451 |}Serviço indisponível de momento, volte a tentar',
    ],
    'lang-it': [
      '{451 4.3.0 |450 |}Errore temporaneo, riprova più tardi',
      '{451 |}Servizio temporaneamente non disponibile',
    ],
    'lang-nl': [
      '{451 4.3.0 |450 |}Tijdelijke fout, probeer het later nog eens',
      '{451 |}Dienst tijdelijk niet beschikbaar',
    ],
    'lang-pl': ['{451 4.3.0 |450 |}Błąd tymczasowy, spróbuj ponownie później', '{451 |}Usługa chwilowo niedostępna'],
    'lang-cs': ['{451 4.3.0 |450 |}Dočasná chyba, opakujte pokus později', '{451 |}Služba je dočasně nedostupná'],
    'lang-sk': ['{451 4.3.0 |451 |}Dočasná chyba, skúste to neskôr', '{451 |}Služba je dočasne nedostupná'],
    'lang-hu': [
      '{451 4.3.0 |451 |}Átmeneti hiba, próbálja újra később',
      '{451 |}A szolgáltatás átmenetileg nem elérhető',
    ],
    'lang-ro': ['{451 4.3.0 |451 |}Eroare temporară, încercați mai târziu', '{451 |}Serviciu temporar indisponibil'],
    'lang-sv': ['{451 4.3.0 |451 |}Tillfälligt fel, försök igen senare', '{451 |}Tjänsten är tillfälligt otillgänglig'],
    'lang-no': [
      '{451 4.3.0 |451 |}Midlertidig feil, prøv igjen senere',
      '{451 |}Tjenesten er midlertidig utilgjengelig',
    ],
    'lang-da': [
      '{451 4.3.0 |451 |}Midlertidig fejl, prøv igen senere',
      '{451 |}Tjenesten er midlertidigt utilgængelig',
    ],
    'lang-fi': [
      '{451 4.3.0 |451 |}Tilapäinen virhe, yritä myöhemmin uudelleen',
      '{451 |}Palvelu ei ole tilapäisesti käytettävissä',
    ],
    'lang-tr': [
      '{451 4.3.0 |451 |}Geçici hata, daha sonra tekrar deneyin',
      '{451 |}Hizmet geçici olarak kullanılamıyor',
    ],
    'lang-el': [
      '{451 4.3.0 |451 |}Προσωρινό σφάλμα, δοκιμάστε ξανά αργότερα',
      '{451 |}Η υπηρεσία δεν είναι προσωρινά διαθέσιμη',
    ],
    'lang-ru': [
      '{451 4.3.0 |451 |}Сервис временно недоступен',
      '{451 |}Локальная ошибка обработки, повторите попытку позже',
      'Временный сбой, попробуйте отправить письмо позже',
    ],
    'lang-uk': ['{451 4.3.0 |451 |}Тимчасова помилка, спробуйте пізніше', '{451 |}Сервіс тимчасово недоступний'],
    'lang-zh-cn': ['{451 4.3.0 |451 |}服务暂时不可用，请稍后重试', '{451 |}临时错误，请稍后重新投递'],
    'lang-zh-tw': ['{451 4.3.0 |451 |}暫時性錯誤，請稍後再試', '{451 |}服務暫時無法使用'],
    'lang-ja': [
      '{451 4.3.0 |451 |}サービスが一時的に利用できません',
      '{451 |}一時的な障害のため受信できません。後ほど再送してください',
    ],
    'lang-ko': [
      '{451 4.3.0 |451 |}서비스를 일시적으로 사용할 수 없습니다',
      '{451 |}일시적 오류가 발생했습니다. 나중에 다시 보내 주세요',
    ],
    'lang-vi': ['{451 4.3.0 |451 |}Dịch vụ tạm thời không khả dụng', '{451 |}Lỗi tạm thời, vui lòng gửi lại sau'],
    'lang-id': [
      '{451 4.3.0 |451 |}Kesalahan sementara, coba lagi nanti',
      '{451 |}Layanan tidak tersedia untuk sementara',
    ],
    'lang-th': ['{451 4.3.0 |451 |}เกิดข้อผิดพลาดชั่วคราว กรุณาลองใหม่อีกครั้งภายหลัง', '{451 |}บริการไม่พร้อมใช้งานชั่วคราว'],
    'lang-ar': ['{451 4.3.0 |451 |}الخدمة غير متاحة مؤقتاً', '{451 |}حدث خطأ مؤقت، أعد المحاولة لاحقاً'],
    'lang-he': ['{451 4.3.0 |451 |}שגיאה זמנית, נסה שוב מאוחר יותר', '{451 |}השירות אינו זמין כרגע'],
    'lang-hi': ['{451 4.3.0 |451 |}अस्थायी त्रुटि, कृपया बाद में पुनः प्रयास करें', '{451 |}सेवा अस्थायी रूप से उपलब्ध नहीं है'],
  }),

  phrasings('general-rate', {
    'lang-de': [
      '{450 4.7.1 |421 |}Sendelimit überschritten, bitte später erneut versuchen',
      '{421 4.7.0 |}Zu viele Nachrichten in kurzer Zeit',
      'Versandlimit erreicht: maximal {n} Nachrichten pro Stunde',
    ],
    'lang-fr': [
      "{421 4.7.0 |450 |}Limite d'envoi atteinte, réessayez plus tard",
      '{421 |}Trop de messages envoyés en peu de temps',
    ],
    'lang-es': [
      '{421 4.7.0 |450 |}Se ha superado el límite de envíos permitido',
      '{421 |}Demasiados mensajes en poco tiempo, inténtelo más tarde',
    ],
    'lang-es-419': [
      '{421 |}Se alcanzó el límite de envíos por hora',
      '{450 4.7.1 |}Está enviando demasiado rápido, intente más tarde',
    ],
    'lang-pt-br': [
      '{421 4.7.0 |450 |}Você atingiu o limite de envio, aguarde e tente novamente',
      '{421 |}Muitas mensagens em pouco tempo, tente mais tarde',
    ],
    'lang-pt-pt': [
      '{421 4.7.0 |421 |}Demasiadas mensagens, tente novamente mais tarde',
      '{450 |}Limite de envio ultrapassado',
    ],
    'lang-it': [
      '{421 4.7.0 |450 |}Hai superato il limite di invio consentito',
      '{421 |}Troppi messaggi in poco tempo, riprova più tardi',
    ],
    'lang-nl': [
      '{421 4.7.0 |450 |}Verzendlimiet overschreden',
      '{421 |}Te veel berichten in korte tijd, probeer het later opnieuw',
    ],
    'lang-pl': [
      '{421 4.7.0 |450 |}Zbyt wiele wiadomości, zwolnij',
      '{421 |}Przekroczono dopuszczalną liczbę wiadomości na godzinę',
    ],
    'lang-cs': [
      '{421 4.7.0 |450 |}Příliš mnoho zpráv, zkuste to později',
      '{421 |}Byl překročen limit pro odesílání zpráv',
    ],
    'lang-sk': ['{421 4.7.0 |450 |}Príliš veľa správ, skúste neskôr', '{421 |}Prekročený limit odosielania'],
    'lang-hu': ['{421 4.7.0 |450 |}Túl sok üzenet, próbálja később', '{421 |}Küldési korlát túllépve'],
    'lang-ro': [
      '{421 4.7.0 |450 |}Prea multe mesaje, încercați mai târziu',
      '{421 |}Limita de trimitere a fost depășită',
    ],
    'lang-sv': [
      '{421 4.7.0 |450 |}För många meddelanden, försök igen senare',
      '{421 |}Sändningsgränsen har överskridits',
    ],
    'lang-no': ['{421 4.7.0 |450 |}For mange meldinger, prøv igjen senere', '{421 |}Sendegrensen er overskredet'],
    'lang-da': [
      '{421 4.7.0 |450 |}For mange meddelelser, prøv igen senere',
      '{421 |}Afsendelsesgrænsen er overskredet',
    ],
    'lang-fi': ['{421 4.7.0 |450 |}Liian monta viestiä, yritä myöhemmin', '{421 |}Lähetysraja ylitetty'],
    'lang-tr': [
      '{421 4.7.0 |450 |}Çok fazla ileti gönderildi, daha sonra deneyin',
      '{421 |}Gönderim sınırınızı aştınız, lütfen bekleyin',
    ],
    'lang-el': ['{421 4.7.0 |450 |}Πάρα πολλά μηνύματα, δοκιμάστε αργότερα', '{421 |}Υπέρβαση ορίου αποστολής'],
    'lang-ru': [
      '{421 4.7.0 |450 |}Превышен лимит отправки сообщений',
      '{451 |}Вы отправляете письма слишком часто',
      'Превышена частота отправки, повторите попытку через {n} минут',
    ],
    'lang-uk': ['{421 4.7.0 |450 |}Забагато листів, спробуйте пізніше', '{421 |}Перевищено ліміт надсилання'],
    'lang-zh-cn': ['{421 4.7.0 |450 |}发送频率过高，请稍后再试', '{451 |}超出发信数量限制'],
    'lang-zh-tw': ['{421 4.7.0 |450 |}寄信頻率過高，請稍後再試', '{421 |}已超過寄送數量上限'],
    'lang-ja': [
      '{421 4.7.0 |450 |}送信数が上限を超えました',
      '{421 |}短時間に大量のメールが送信されたため一時的に制限しています',
    ],
    'lang-ko': [
      '{421 4.7.0 |450 |}발송량 한도를 초과했습니다',
      '{421 |}짧은 시간에 너무 많은 메일을 보냈습니다. 잠시 후 다시 시도하세요',
    ],
    'lang-vi': ['{421 4.7.0 |450 |}Gửi quá nhiều thư, vui lòng thử lại sau', '{421 |}Vượt quá giới hạn gửi thư'],
    'lang-id': ['{421 4.7.0 |450 |}Terlalu banyak pesan, coba lagi nanti', '{421 |}Batas pengiriman terlampaui'],
    'lang-th': ['{421 4.7.0 |450 |}ส่งข้อความมากเกินไป กรุณาลองใหม่ภายหลัง', '{421 |}เกินขีดจำกัดการส่ง'],
    'lang-ar': ['{421 4.7.0 |450 |}عدد كبير جداً من الرسائل، حاول لاحقاً', '{421 |}تم تجاوز حد الإرسال'],
    'lang-he': ['{421 4.7.0 |450 |}יותר מדי הודעות, נסה שוב מאוחר יותר', '{421 |}חריגה ממגבלת השליחה'],
    'lang-hi': ['{421 4.7.0 |450 |}बहुत अधिक संदेश भेजे गए, बाद में प्रयास करें', '{421 |}भेजने की सीमा पार हो गई है'],
  }),

  // ---------------------------------------------------------------------------------------------------------
  // Sending side: the receiving host could not be reached (localised MTAs and webmail bounce notices)
  // ---------------------------------------------------------------------------------------------------------
  phrasings('connection-failure', {
    'lang-de': [
      'Zeitüberschreitung bei der Verbindung zu {mx} ({ip})',
      'Verbindung zu {mx}[{ip}]:25 abgelehnt',
      'Der Host {mx} ist nicht erreichbar',
      'Die Verbindung zum Mailserver des Empfängers wurde unterbrochen',
    ],
    'lang-fr': [
      'Délai de connexion dépassé avec {mx}',
      "L'hôte {mx} [{ip}] est injoignable",
      'La connexion avec le serveur distant a été interrompue',
    ],
    'lang-es': [
      'Se agotó el tiempo de conexión con {mx} [{ip}]',
      'El host {mx} no responde',
      'Se perdió la conexión con el servidor remoto',
    ],
    'lang-es-419': [
      'No fue posible establecer conexión con el servidor de correo del destinatario',
      'Conexión rehusada por {mx} [{ip}]',
    ],
    'lang-pt-br': [
      'Conexão recusada por {mx} [{ip}]',
      'O servidor de destino {mx} não respondeu',
      'A conexão com o servidor remoto foi perdida',
    ],
    'lang-pt-pt': ['Tempo de ligação esgotado ao contactar {mx}', 'Ligação recusada pelo servidor {mx}'],
    'lang-it': [
      'Connessione rifiutata da {mx} [{ip}]',
      "L'host {mx} non è raggiungibile",
      'Connessione con il server remoto interrotta',
    ],
    'lang-nl': [
      'Verbinding geweigerd door {mx} [{ip}]',
      'Host {mx} is onbereikbaar',
      'De verbinding met de externe server is verbroken',
    ],
    'lang-pl': [
      'Połączenie odrzucone przez {mx} [{ip}]',
      'Host {mx} jest nieosiągalny',
      'Utracono połączenie z serwerem odbiorcy',
    ],
    'lang-cs': ['Spojení odmítnuto serverem {mx} [{ip}]', 'Server {mx} je nedostupný'],
    'lang-sk': ['Vypršal časový limit pripojenia k {mx}', 'Spojenie so serverom {mx} bolo odmietnuté'],
    'lang-hu': [
      'Időtúllépés a(z) {mx} kiszolgálóhoz való csatlakozáskor',
      'A(z) {mx} kiszolgáló elutasította a kapcsolatot',
    ],
    'lang-ro': ['Conexiunea la {mx} a expirat', 'Conexiune refuzată de {mx} [{ip}]'],
    'lang-sv': ['Tidsgränsen för anslutning till {mx} överskreds', 'Anslutningen nekades av {mx} [{ip}]'],
    'lang-no': ['Tidsavbrudd ved tilkobling til {mx}', 'Tilkoblingen ble avvist av {mx} [{ip}]'],
    'lang-da': ['Timeout ved forbindelse til {mx}', 'Forbindelsen blev afvist af {mx} [{ip}]'],
    'lang-fi': ['Yhteys palvelimeen {mx} aikakatkaistiin', 'Palvelin {mx} [{ip}] hylkäsi yhteyden'],
    'lang-tr': ['{mx} [{ip}] bağlantıyı reddetti', 'Alıcı sunucuya ulaşılamıyor: {mx}'],
    'lang-el': ['Λήξη χρονικού ορίου σύνδεσης με τον {mx}', 'Ο διακομιστής {mx} [{ip}] απέρριψε τη σύνδεση'],
    'lang-ru': [
      'Истекло время ожидания соединения с {mx} [{ip}]',
      'Хост {mx} недоступен',
      'Соединение с сервером получателя разорвано',
    ],
    'lang-uk': ['Час очікування з’єднання з {mx} вичерпано', "З'єднання відхилено сервером {mx} [{ip}]"],
    'lang-zh-cn': ['连接 {mx} [{ip}] 被拒绝', '对方服务器无响应，连接超时', '无法访问主机 {mx}'],
    'lang-zh-tw': ['連線至 {mx} 逾時', '無法連線到收件者的郵件伺服器'],
    'lang-ja': [
      '{mx} [{ip}] への接続が拒否されました',
      '相手先のメールサーバーに接続できませんでした',
      'ホスト {mx} に到達できません',
    ],
    'lang-ko': ['{mx} [{ip}] 연결이 거부되었습니다', '상대 메일 서버가 응답하지 않습니다'],
    'lang-vi': ['Kết nối tới {mx} [{ip}] bị từ chối', 'Máy chủ người nhận không phản hồi'],
    'lang-id': ['Waktu koneksi ke {mx} habis', 'Koneksi ditolak oleh {mx} [{ip}]'],
    'lang-th': ['หมดเวลาการเชื่อมต่อกับ {mx}', 'การเชื่อมต่อถูกปฏิเสธโดย {mx} [{ip}]'],
    'lang-ar': ['انتهت مهلة الاتصال بالخادم {mx}', 'رفض الخادم {mx} [{ip}] الاتصال'],
    'lang-he': ['תם הזמן הקצוב להתחברות לשרת {mx}', 'השרת {mx} [{ip}] דחה את החיבור'],
    'lang-hi': ['सर्वर {mx} से कनेक्शन का समय समाप्त हो गया', '{mx} [{ip}] ने कनेक्शन अस्वीकार कर दिया'],
  }),
];
