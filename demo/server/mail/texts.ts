import i18next from 'i18next';
import { LANGUAGES, type Language } from '../../../src/contract/languages';
import type { NewPasswordProblem } from '../lib/password-policy';

/**
 * Everything the server writes for people — mail and the messages the screens show as they are — in the
 * seven languages: i18next resources, as the elements' locale files are (`{{name}}` placeholders),
 * read through the server's own i18next instance ({@link serverText}). The type makes a missing text in
 * any language a compile error.
 */
export interface ServerTexts {
  reset: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  /** A sign-in code and its one-click link, in one mail (routes/email-code.ts). */
  emailCode: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    browser: string;
    ignore: string;
  };
  /** Starting a team: the code and its one-click link that verify the address (routes/sign-up.ts). */
  signUp: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  changed: {
    subject: string;
    greeting: string;
    body: string;
    warning: string;
  };
  invite: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  /** A setup link: to the company's IT contact, from a team owner, for the domains and single sign-on. */
  setup: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  /** Notices about the account's sign-in security (two-step on/off, a recovery code used, a passkey added). */
  notice: {
    greeting: string;
    warning: string;
    twoStepOn: { subject: string; body: string };
    twoStepOff: { subject: string; body: string };
    recoveryUsed: { subject: string; body: string };
    passkeyAdded: { subject: string; body: string };
  };
  newDevice: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    warning: string;
  };
  emailConfirm: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  emailNotice: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    warning: string;
  };
  /** To a team's owners: a verified domain's DNS record stayed missing past the grace period. */
  domainLost: {
    subject: string;
    greeting: string;
    body: string;
    again: string;
  };
  /** To a team's owners: its streaming endpoint failed for a day and no longer receives events. */
  streamDisabled: {
    subject: string;
    greeting: string;
    body: string;
    again: string;
  };
  /** A request to join a team from its domain: the code that verifies the address. */
  joinCode: {
    subject: string;
    greeting: string;
    body: string;
    expiry: string;
    ignore: string;
  };
  /** A request to join was approved (by an admin, or by the domain's automatic joining): the link. */
  joinApproved: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  /** A request to join was declined: a neutral note. */
  joinDeclined: {
    subject: string;
    greeting: string;
    body: string;
  };
  footer: string;
  policy: Record<NewPasswordProblem, string>;
  resetInvalid: string;
  resetMismatch: string;
  confirmMismatch: string;
  /**
   * The page shown when an app's sign-in request cannot go on (the provider refused it, or it expired):
   * the browser cannot be sent back to the app, so the user is told to go back themselves.
   */
  signInRefused: {
    title: string;
    retry: string;
    code: string;
  };
  signOut: {
    title: string;
    body: string;
    confirm: string;
    stay: string;
    done: string;
    close: string;
  };
  device: {
    title: string;
    enter: string;
    code: string;
    continue: string;
    wrongCode: string;
    expired: string;
    used: string;
    aborted: string;
    error: string;
    tooMany: string;
    confirmTitle: string;
    confirmBody: string;
    notYou: string;
    confirm: string;
    cancel: string;
    doneTitle: string;
    doneBody: string;
  };
}

export const TEXTS: Record<Language, ServerTexts> = {
  en: {
    reset: {
      subject: 'Reset your {{brand}} password',
      greeting: 'Hello {{name}},',
      body: 'We received a request to reset the password of your {{brand}} account in the team {{team}}.',
      action: 'Choose a new password',
      expiry: 'The link works once and expires in one hour.',
      ignore: 'If you did not ask for this, ignore this email: your password stays the same.',
    },
    emailCode: {
      subject: '{{code}} is your {{brand}} sign-in code',
      greeting: 'Hello {{name}},',
      body: 'Use this code to sign in to the team {{team}}:',
      action: 'Sign in',
      expiry: 'The code works once and expires in ten minutes.',
      browser:
        'The button signs you in only in the browser where you asked for the code; in another browser, type the code instead.',
      ignore: 'If you did not ask to sign in, ignore this email: nobody can sign in without this code.',
    },
    signUp: {
      subject: '{{code}} is your code to start {{team}} on {{brand}}',
      greeting: 'Hello {{name}},',
      body: 'Enter this code to confirm your email address and start the team {{team}}:',
      action: 'Confirm and continue',
      expiry: 'The code and the button work once and expire in ten minutes.',
      ignore: 'If you did not ask to start a team, ignore this email: nothing is created without this code.',
    },
    changed: {
      subject: 'Your {{brand}} password was changed',
      greeting: 'Hello {{name}},',
      body: 'The password of your {{brand}} account in the team {{team}} was changed on {{date}}. Every other session of yours has been signed out.',
      warning: 'If you did not change it, reset your password now and tell your administrator.',
    },
    invite: {
      subject: '{{inviter}} invited you to {{team}} on {{brand}}',
      greeting: 'Hello,',
      body: '{{inviter}} ({{inviterEmail}}) invited you to join the team {{team}} on {{brand}}.',
      action: 'Accept the invitation',
      expiry: 'The link works once and expires on {{date}}.',
      ignore: 'If you did not expect this invitation, ignore this email.',
    },
    setup: {
      subject: '{{owner}} asks you to set up single sign-on for {{team}} on {{brand}}',
      greeting: 'Hello,',
      body: '{{owner}} ({{ownerEmail}}) asks you to verify your company’s email domains and connect your identity provider to the team {{team}} on {{brand}}. You do not need an account: the link opens the setup screens.',
      action: 'Open the setup',
      expiry:
        'The link works only in the first browser that opens it, and expires on {{date}}. If it stops working, ask {{owner}} for a new one.',
      ignore: 'If you did not expect this email, ignore it and tell {{owner}}.',
    },
    notice: {
      greeting: 'Hello {{name}},',
      warning: 'If this was not you, change your password now and tell your administrator.',
      twoStepOn: {
        subject: 'Two-step sign-in is on for your {{brand}} account',
        body: 'Two-step sign-in was turned on for your {{brand}} account in the team {{team}} on {{date}}. Signing in now also asks for a code from your authenticator app.',
      },
      twoStepOff: {
        subject: 'Two-step sign-in is off for your {{brand}} account',
        body: 'Two-step sign-in was turned off for your {{brand}} account in the team {{team}} on {{date}}. Your recovery codes no longer work.',
      },
      recoveryUsed: {
        subject: 'A recovery code was used for your {{brand}} account',
        body: 'A recovery code was used to sign in to your {{brand}} account in the team {{team}} on {{date}}. Unused recovery codes left: {{left}}.',
      },
      passkeyAdded: {
        subject: 'A passkey was added to your {{brand}} account',
        body: 'The passkey “{{passkey}}” was added to your {{brand}} account in the team {{team}} on {{date}}. It can now be used to sign in.',
      },
    },
    newDevice: {
      subject: 'New sign-in to your {{brand}} account',
      greeting: 'Hello {{name}},',
      body: 'Your {{brand}} account in the team {{team}} was signed in to from a browser it has not used before: {{device}}, on {{date}}.',
      action: 'Review your sessions',
      warning: 'If this was not you, end that session and change your password now.',
    },
    emailConfirm: {
      subject: 'Confirm your new {{brand}} email address',
      greeting: 'Hello {{name}},',
      body: 'Confirm that {{email}} is the new email address of your {{brand}} account in the team {{team}}.',
      action: 'Confirm the new address',
      expiry: 'The link works once and expires in one hour.',
      ignore: 'If you did not ask for this, ignore this email: nothing changes.',
    },
    emailNotice: {
      subject: 'Your {{brand}} email address is being changed',
      greeting: 'Hello {{name}},',
      body: 'Someone asked to change the email address of your {{brand}} account in the team {{team}} to {{email}}. It changes once the new address is confirmed.',
      action: 'Undo this change',
      warning:
        'If this was not you, undo the change with this link (it works for 7 days) and change your password.',
    },
    domainLost: {
      subject: 'The domain {{domain}} is no longer verified for {{team}}',
      greeting: 'Hello {{name}},',
      body: 'The DNS record that proves {{domain}} belongs to the team {{team}} has been missing for three days, so {{brand}} no longer treats the domain as verified: sign-in by this domain is off. Members keep their accounts.',
      again:
        'To verify it again, publish the TXT record {{record}} and verify the domain in the Team settings.',
    },
    streamDisabled: {
      subject: 'Event streaming to {{endpoint}} is turned off for {{team}}',
      greeting: 'Hello {{name}},',
      body: 'For a day, {{endpoint}} has not accepted the events of the team {{team}}, so {{brand}} has stopped sending them there. No events are queued for it while it is off.',
      again:
        'Once the endpoint works again, resume it on the Event streaming page of the Team settings: the events it missed before it was turned off are sent first.',
    },
    joinCode: {
      subject: '{{code}} is your code to join {{team}}',
      greeting: 'Hello {{name}},',
      body: 'Enter this code to confirm your request to join the team {{team}} on {{brand}}:',
      expiry: 'The code works once and expires in ten minutes.',
      ignore: 'If you did not ask to join, ignore this email: nothing happens.',
    },
    joinApproved: {
      subject: 'Welcome to {{team}} on {{brand}}',
      greeting: 'Hello {{name}},',
      body: 'Your request to join the team {{team}} on {{brand}} was accepted. Choose a password to sign in.',
      action: 'Join {{team}}',
      expiry: 'The link works once and expires on {{date}}.',
      ignore: 'If you did not ask to join, ignore this email.',
    },
    joinDeclined: {
      subject: 'Your request to join {{team}}',
      greeting: 'Hello {{name}},',
      body: 'Your request to join the team {{team}} on {{brand}} was not accepted. If you think this is a mistake, contact the team’s administrator.',
    },
    footer: 'This email was sent by {{brand}} account services. Please do not reply.',
    policy: {
      tooShort: 'The password must have at least {{min}} characters.',
      tooLong: 'The password must have at most {{max}} characters.',
      sameAsEmail: 'The password must not be your email address.',
      common: 'This password is too common. Choose one that is harder to guess.',
      breached:
        'This password has appeared in a data breach, so attackers try it first. Choose a different one.',
    },
    resetInvalid: 'This reset link is no longer valid.',
    resetMismatch: 'This reset link does not belong to this team.',
    confirmMismatch: 'The passwords do not match.',
    signInRefused: {
      title: 'This sign-in cannot continue',
      retry: 'Go back to the app and try signing in again.',
      code: 'Error code: {{code}}',
    },
    signOut: {
      title: 'Do you want to sign out?',
      body: 'An app asked to sign you out. Signing out ends your session on this browser, for every app that signs in with your account.',
      confirm: 'Sign out',
      stay: 'Stay signed in',
      done: 'You are signed out',
      close: 'You can close this page.',
    },
    device: {
      title: 'Sign in on a device',
      enter: 'Enter the code your device shows.',
      code: 'Code',
      continue: 'Continue',
      wrongCode: 'This code is not known. Check it and try again.',
      expired: 'This code has expired. Start again on your device.',
      used: 'This code has already been used. Start again on your device.',
      aborted: 'Signing in on the device was cancelled.',
      error: 'Something went wrong. Start again on your device.',
      tooMany: 'Too many attempts. Try again in a few minutes.',
      confirmTitle: 'Sign in to {{app}}?',
      confirmBody: '{{app}} asks to sign in with your account. Continue only if your device shows this code:',
      notYou: 'If you did not start this, choose Cancel.',
      confirm: 'Sign in',
      cancel: 'Cancel',
      doneTitle: 'Your device is signed in',
      doneBody: 'You can close this page and go back to {{app}}.',
    },
  },
  fr: {
    reset: {
      subject: 'Réinitialisez votre mot de passe {{brand}}',
      greeting: 'Bonjour {{name}},',
      body: 'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte {{brand}} dans l’équipe {{team}}.',
      action: 'Choisir un nouveau mot de passe',
      expiry: 'Ce lien ne fonctionne qu’une fois et expire dans une heure.',
      ignore:
        'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.',
    },
    emailCode: {
      subject: '{{code}} est votre code de connexion {{brand}}',
      greeting: 'Bonjour {{name}},',
      body: 'Utilisez ce code pour vous connecter à l’équipe {{team}} :',
      action: 'Se connecter',
      expiry: 'Le code ne sert qu’une fois et expire dans dix minutes.',
      browser:
        'Le bouton ne vous connecte que dans le navigateur où vous avez demandé le code ; dans un autre navigateur, saisissez plutôt le code.',
      ignore:
        'Si vous n’avez pas demandé à vous connecter, ignorez cet e-mail : personne ne peut se connecter sans ce code.',
    },
    signUp: {
      subject: '{{code}} est votre code pour créer {{team}} sur {{brand}}',
      greeting: 'Bonjour {{name}},',
      body: 'Saisissez ce code pour confirmer votre adresse e-mail et créer l’équipe {{team}} :',
      action: 'Confirmer et continuer',
      expiry: 'Le code et le bouton ne servent qu’une fois et expirent dans dix minutes.',
      ignore:
        'Si vous n’avez pas demandé à créer une équipe, ignorez cet e-mail : rien n’est créé sans ce code.',
    },
    changed: {
      subject: 'Votre mot de passe {{brand}} a été modifié',
      greeting: 'Bonjour {{name}},',
      body: 'Le mot de passe de votre compte {{brand}} dans l’équipe {{team}} a été modifié le {{date}}. Toutes vos autres sessions ont été déconnectées.',
      warning:
        'Si vous n’êtes pas à l’origine de ce changement, réinitialisez votre mot de passe dès maintenant et prévenez votre administrateur.',
    },
    invite: {
      subject: '{{inviter}} vous invite à rejoindre {{team}} sur {{brand}}',
      greeting: 'Bonjour,',
      body: '{{inviter}} ({{inviterEmail}}) vous invite à rejoindre l’équipe {{team}} sur {{brand}}.',
      action: 'Accepter l’invitation',
      expiry: 'Ce lien ne fonctionne qu’une fois et expire le {{date}}.',
      ignore: 'Si vous ne vous attendiez pas à cette invitation, ignorez cet e-mail.',
    },
    setup: {
      subject: '{{owner}} vous demande de configurer l’authentification unique de {{team}} sur {{brand}}',
      greeting: 'Bonjour,',
      body: '{{owner}} ({{ownerEmail}}) vous demande de vérifier les domaines de messagerie de votre entreprise et de connecter votre fournisseur d’identité à l’équipe {{team}} sur {{brand}}. Aucun compte n’est nécessaire : le lien ouvre les écrans de configuration.',
      action: 'Ouvrir la configuration',
      expiry:
        'Le lien ne fonctionne que dans le premier navigateur qui l’ouvre et expire le {{date}}. S’il ne fonctionne plus, demandez-en un nouveau à {{owner}}.',
      ignore: 'Si vous ne vous attendiez pas à cet e-mail, ignorez-le et prévenez {{owner}}.',
    },
    notice: {
      greeting: 'Bonjour {{name}},',
      warning:
        'Si ce n’était pas vous, changez votre mot de passe maintenant et prévenez votre administrateur.',
      twoStepOn: {
        subject: 'La connexion en deux étapes est activée sur votre compte {{brand}}',
        body: 'La connexion en deux étapes a été activée sur votre compte {{brand}} dans l’équipe {{team}} le {{date}}. La connexion demande désormais aussi un code de votre application d’authentification.',
      },
      twoStepOff: {
        subject: 'La connexion en deux étapes est désactivée sur votre compte {{brand}}',
        body: 'La connexion en deux étapes a été désactivée sur votre compte {{brand}} dans l’équipe {{team}} le {{date}}. Vos codes de récupération ne fonctionnent plus.',
      },
      recoveryUsed: {
        subject: 'Un code de récupération a été utilisé pour votre compte {{brand}}',
        body: 'Un code de récupération a servi à vous connecter à votre compte {{brand}} dans l’équipe {{team}} le {{date}}. Codes de récupération restants : {{left}}.',
      },
      passkeyAdded: {
        subject: 'Une clé d’accès a été ajoutée à votre compte {{brand}}',
        body: 'La clé d’accès « {{passkey}} » a été ajoutée à votre compte {{brand}} dans l’équipe {{team}} le {{date}}. Elle permet désormais de se connecter.',
      },
    },
    newDevice: {
      subject: 'Nouvelle connexion à votre compte {{brand}}',
      greeting: 'Bonjour {{name}},',
      body: 'Une connexion à votre compte {{brand}} dans l’équipe {{team}} a eu lieu depuis un navigateur jamais utilisé auparavant : {{device}}, le {{date}}.',
      action: 'Voir vos sessions',
      warning: 'Si ce n’était pas vous, fermez cette session et changez votre mot de passe dès maintenant.',
    },
    emailConfirm: {
      subject: 'Confirmez votre nouvelle adresse e-mail {{brand}}',
      greeting: 'Bonjour {{name}},',
      body: 'Confirmez que {{email}} est la nouvelle adresse e-mail de votre compte {{brand}} dans l’équipe {{team}}.',
      action: 'Confirmer la nouvelle adresse',
      expiry: 'Le lien ne fonctionne qu’une fois et expire dans une heure.',
      ignore: 'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail : rien ne change.',
    },
    emailNotice: {
      subject: 'Changement de votre adresse e-mail {{brand}}',
      greeting: 'Bonjour {{name}},',
      body: 'Une demande a été faite pour remplacer l’adresse e-mail de votre compte {{brand}} dans l’équipe {{team}} par {{email}}. Elle change dès que la nouvelle adresse est confirmée.',
      action: 'Annuler ce changement',
      warning:
        'Si ce n’était pas vous, annulez le changement avec ce lien (valable 7 jours) et changez votre mot de passe.',
    },
    domainLost: {
      subject: 'Le domaine {{domain}} n’est plus vérifié pour {{team}}',
      greeting: 'Bonjour {{name}},',
      body: 'L’enregistrement DNS qui prouve que {{domain}} appartient à l’équipe {{team}} est absent depuis trois jours : {{brand}} ne considère plus ce domaine comme vérifié et la connexion par ce domaine est désactivée. Les membres gardent leur compte.',
      again:
        'Pour le vérifier à nouveau, publiez l’enregistrement TXT {{record}}, puis vérifiez le domaine dans les Paramètres de l’équipe.',
    },
    streamDisabled: {
      subject: 'Le streaming des événements vers {{endpoint}} est désactivé pour {{team}}',
      greeting: 'Bonjour {{name}},',
      body: 'Depuis un jour, {{endpoint}} n’accepte plus les événements de l’équipe {{team}} : {{brand}} a donc cessé de les y envoyer. Aucun événement n’est mis en attente tant qu’il est désactivé.',
      again:
        'Une fois le point de terminaison rétabli, réactivez-le dans la page Streaming des événements des Paramètres de l’équipe : les événements qu’il a manqués avant sa désactivation partent en premier.',
    },
    joinCode: {
      subject: '{{code}} est votre code pour rejoindre {{team}}',
      greeting: 'Bonjour {{name}},',
      body: 'Saisissez ce code pour confirmer votre demande d’adhésion à l’équipe {{team}} sur {{brand}} :',
      expiry: 'Le code ne sert qu’une fois et expire dans dix minutes.',
      ignore: 'Si vous n’avez rien demandé, ignorez cet e-mail : rien ne se passera.',
    },
    joinApproved: {
      subject: 'Bienvenue dans {{team}} sur {{brand}}',
      greeting: 'Bonjour {{name}},',
      body: 'Votre demande pour rejoindre l’équipe {{team}} sur {{brand}} a été acceptée. Choisissez un mot de passe pour vous connecter.',
      action: 'Rejoindre {{team}}',
      expiry: 'Le lien ne sert qu’une fois et expire le {{date}}.',
      ignore: 'Si vous n’avez rien demandé, ignorez cet e-mail.',
    },
    joinDeclined: {
      subject: 'Votre demande pour rejoindre {{team}}',
      greeting: 'Bonjour {{name}},',
      body: 'Votre demande pour rejoindre l’équipe {{team}} sur {{brand}} n’a pas été acceptée. S’il s’agit d’une erreur, contactez l’administrateur de l’équipe.',
    },
    footer: 'Cet e-mail a été envoyé par le service de comptes {{brand}}. Merci de ne pas y répondre.',
    policy: {
      tooShort: 'Le mot de passe doit contenir au moins {{min}} caractères.',
      tooLong: 'Le mot de passe doit contenir au plus {{max}} caractères.',
      sameAsEmail: 'Le mot de passe ne doit pas être votre adresse e-mail.',
      common: 'Ce mot de passe est trop courant. Choisissez-en un plus difficile à deviner.',
      breached:
        'Ce mot de passe figure dans une fuite de données : les attaquants l’essaient en premier. Choisissez-en un autre.',
    },
    resetInvalid: 'Ce lien de réinitialisation n’est plus valide.',
    resetMismatch: 'Ce lien de réinitialisation n’appartient pas à cette équipe.',
    confirmMismatch: 'Les mots de passe ne correspondent pas.',
    signInRefused: {
      title: 'Cette connexion ne peut pas aboutir',
      retry: 'Revenez à l’application et essayez de vous reconnecter.',
      code: 'Code d’erreur : {{code}}',
    },
    signOut: {
      title: 'Voulez-vous vous déconnecter ?',
      body: 'Une application a demandé à vous déconnecter. La déconnexion met fin à votre session dans ce navigateur, pour toutes les applications qui utilisent votre compte.',
      confirm: 'Se déconnecter',
      stay: 'Rester connecté',
      done: 'Vous êtes déconnecté',
      close: 'Vous pouvez fermer cette page.',
    },
    device: {
      title: 'Connexion sur un appareil',
      enter: 'Saisissez le code affiché sur votre appareil.',
      code: 'Code',
      continue: 'Continuer',
      wrongCode: 'Ce code est inconnu. Vérifiez-le et réessayez.',
      expired: 'Ce code a expiré. Recommencez sur votre appareil.',
      used: 'Ce code a déjà été utilisé. Recommencez sur votre appareil.',
      aborted: 'La connexion sur l’appareil a été annulée.',
      error: 'Une erreur s’est produite. Recommencez sur votre appareil.',
      tooMany: 'Trop de tentatives. Réessayez dans quelques minutes.',
      confirmTitle: 'Se connecter à {{app}} ?',
      confirmBody:
        '{{app}} demande à se connecter avec votre compte. Ne continuez que si votre appareil affiche ce code :',
      notYou: 'Si vous n’êtes pas à l’origine de cette demande, choisissez Annuler.',
      confirm: 'Se connecter',
      cancel: 'Annuler',
      doneTitle: 'Votre appareil est connecté',
      doneBody: 'Vous pouvez fermer cette page et revenir à {{app}}.',
    },
  },
  es: {
    reset: {
      subject: 'Restablece tu contraseña de {{brand}}',
      greeting: 'Hola, {{name}}:',
      body: 'Hemos recibido una solicitud para restablecer la contraseña de tu cuenta de {{brand}} en el equipo {{team}}.',
      action: 'Elegir una contraseña nueva',
      expiry: 'El enlace solo funciona una vez y caduca en una hora.',
      ignore: 'Si no lo has solicitado tú, ignora este correo: tu contraseña no cambiará.',
    },
    emailCode: {
      subject: '{{code}} es tu código para iniciar sesión en {{brand}}',
      greeting: 'Hola, {{name}}:',
      body: 'Usa este código para iniciar sesión en el equipo {{team}}:',
      action: 'Iniciar sesión',
      expiry: 'El código sirve una sola vez y caduca en diez minutos.',
      browser:
        'El botón solo inicia sesión en el navegador donde pediste el código; en otro navegador, escribe el código.',
      ignore: 'Si no pediste iniciar sesión, ignora este correo: nadie puede entrar sin este código.',
    },
    signUp: {
      subject: '{{code}} es tu código para crear {{team}} en {{brand}}',
      greeting: 'Hola, {{name}}:',
      body: 'Introduce este código para confirmar tu dirección de correo y crear el equipo {{team}}:',
      action: 'Confirmar y continuar',
      expiry: 'El código y el botón solo sirven una vez y caducan en diez minutos.',
      ignore: 'Si no has pedido crear un equipo, ignora este correo: sin este código no se crea nada.',
    },
    changed: {
      subject: 'Se ha cambiado tu contraseña de {{brand}}',
      greeting: 'Hola, {{name}}:',
      body: 'La contraseña de tu cuenta de {{brand}} en el equipo {{team}} se cambió el {{date}}. Se han cerrado todas tus demás sesiones.',
      warning: 'Si no la has cambiado tú, restablece tu contraseña ahora y avisa a tu administrador.',
    },
    invite: {
      subject: '{{inviter}} te ha invitado a {{team}} en {{brand}}',
      greeting: 'Hola:',
      body: '{{inviter}} ({{inviterEmail}}) te ha invitado a unirte al equipo {{team}} en {{brand}}.',
      action: 'Aceptar la invitación',
      expiry: 'El enlace solo funciona una vez y caduca el {{date}}.',
      ignore: 'Si no esperabas esta invitación, ignora este correo.',
    },
    setup: {
      subject: '{{owner}} te pide que configures el inicio de sesión único de {{team}} en {{brand}}',
      greeting: 'Hola:',
      body: '{{owner}} ({{ownerEmail}}) te pide que verifiques los dominios de correo de tu empresa y conectes tu proveedor de identidad al equipo {{team}} en {{brand}}. No necesitas una cuenta: el enlace abre las pantallas de configuración.',
      action: 'Abrir la configuración',
      expiry:
        'El enlace solo funciona en el primer navegador que lo abra y caduca el {{date}}. Si deja de funcionar, pide uno nuevo a {{owner}}.',
      ignore: 'Si no esperabas este correo, ignóralo y avisa a {{owner}}.',
    },
    notice: {
      greeting: 'Hola, {{name}}:',
      warning: 'Si no has sido tú, cambia tu contraseña ahora y avisa a tu administrador.',
      twoStepOn: {
        subject: 'El inicio de sesión en dos pasos está activado en tu cuenta de {{brand}}',
        body: 'Se activó el inicio de sesión en dos pasos en tu cuenta de {{brand}} del equipo {{team}} el {{date}}. Ahora, al iniciar sesión también se pide un código de tu aplicación de autenticación.',
      },
      twoStepOff: {
        subject: 'El inicio de sesión en dos pasos está desactivado en tu cuenta de {{brand}}',
        body: 'Se desactivó el inicio de sesión en dos pasos en tu cuenta de {{brand}} del equipo {{team}} el {{date}}. Tus códigos de recuperación ya no funcionan.',
      },
      recoveryUsed: {
        subject: 'Se usó un código de recuperación en tu cuenta de {{brand}}',
        body: 'Se usó un código de recuperación para iniciar sesión en tu cuenta de {{brand}} del equipo {{team}} el {{date}}. Códigos de recuperación sin usar: {{left}}.',
      },
      passkeyAdded: {
        subject: 'Se añadió una llave de acceso a tu cuenta de {{brand}}',
        body: 'Se añadió la llave de acceso «{{passkey}}» a tu cuenta de {{brand}} del equipo {{team}} el {{date}}. Ya puede usarse para iniciar sesión.',
      },
    },
    newDevice: {
      subject: 'Nuevo inicio de sesión en tu cuenta de {{brand}}',
      greeting: 'Hola, {{name}}:',
      body: 'Se inició sesión en tu cuenta de {{brand}} del equipo {{team}} desde un navegador que no se había usado antes: {{device}}, el {{date}}.',
      action: 'Revisar tus sesiones',
      warning: 'Si no fuiste tú, cierra esa sesión y cambia tu contraseña ahora.',
    },
    emailConfirm: {
      subject: 'Confirma tu nueva dirección de correo de {{brand}}',
      greeting: 'Hola, {{name}}:',
      body: 'Confirma que {{email}} es la nueva dirección de correo de tu cuenta de {{brand}} en el equipo {{team}}.',
      action: 'Confirmar la nueva dirección',
      expiry: 'El enlace funciona una sola vez y caduca en una hora.',
      ignore: 'Si no lo has pedido tú, ignora este correo: no cambia nada.',
    },
    emailNotice: {
      subject: 'Se está cambiando tu dirección de correo de {{brand}}',
      greeting: 'Hola, {{name}}:',
      body: 'Alguien ha pedido cambiar la dirección de correo de tu cuenta de {{brand}} en el equipo {{team}} a {{email}}. Cambiará cuando se confirme la nueva dirección.',
      action: 'Deshacer este cambio',
      warning:
        'Si no fuiste tú, deshaz el cambio con este enlace (funciona durante 7 días) y cambia tu contraseña.',
    },
    domainLost: {
      subject: 'El dominio {{domain}} ya no está verificado para {{team}}',
      greeting: 'Hola, {{name}}:',
      body: 'El registro DNS que demuestra que {{domain}} pertenece al equipo {{team}} lleva tres días sin aparecer, así que {{brand}} ya no considera verificado el dominio y el inicio de sesión por este dominio está desactivado. Los miembros conservan sus cuentas.',
      again:
        'Para verificarlo de nuevo, publica el registro TXT {{record}} y verifica el dominio en la Configuración del equipo.',
    },
    streamDisabled: {
      subject: 'El envío de eventos a {{endpoint}} está desactivado para {{team}}',
      greeting: 'Hola, {{name}}:',
      body: 'Desde hace un día, {{endpoint}} no acepta los eventos del equipo {{team}}, así que {{brand}} ha dejado de enviárselos. Mientras esté desactivado, no se guarda ningún evento para él.',
      again:
        'Cuando el endpoint vuelva a funcionar, reanúdalo en la página Envío de eventos de la Configuración del equipo: primero se enviarán los eventos que no recibió antes de desactivarse.',
    },
    joinCode: {
      subject: '{{code}} es tu código para unirte a {{team}}',
      greeting: 'Hola, {{name}}:',
      body: 'Introduce este código para confirmar tu solicitud para unirte al equipo {{team}} en {{brand}}:',
      expiry: 'El código solo sirve una vez y caduca en diez minutos.',
      ignore: 'Si no lo has pedido tú, ignora este correo: no pasará nada.',
    },
    joinApproved: {
      subject: 'Te damos la bienvenida a {{team}} en {{brand}}',
      greeting: 'Hola, {{name}}:',
      body: 'Se ha aceptado tu solicitud para unirte al equipo {{team}} en {{brand}}. Elige una contraseña para iniciar sesión.',
      action: 'Unirme a {{team}}',
      expiry: 'El enlace solo sirve una vez y caduca el {{date}}.',
      ignore: 'Si no lo has pedido tú, ignora este correo.',
    },
    joinDeclined: {
      subject: 'Tu solicitud para unirte a {{team}}',
      greeting: 'Hola, {{name}}:',
      body: 'No se ha aceptado tu solicitud para unirte al equipo {{team}} en {{brand}}. Si crees que es un error, ponte en contacto con el administrador del equipo.',
    },
    footer: 'Este correo lo ha enviado el servicio de cuentas de {{brand}}. No respondas a este mensaje.',
    policy: {
      tooShort: 'La contraseña debe tener al menos {{min}} caracteres.',
      tooLong: 'La contraseña debe tener como máximo {{max}} caracteres.',
      sameAsEmail: 'La contraseña no puede ser tu dirección de correo electrónico.',
      common: 'Esta contraseña es demasiado común. Elige una más difícil de adivinar.',
      breached:
        'Esta contraseña apareció en una filtración de datos, así que los atacantes la prueban primero. Elige otra.',
    },
    resetInvalid: 'Este enlace de restablecimiento ya no es válido.',
    resetMismatch: 'Este enlace de restablecimiento no corresponde a este equipo.',
    confirmMismatch: 'Las contraseñas no coinciden.',
    signInRefused: {
      title: 'No se puede continuar con el inicio de sesión',
      retry: 'Vuelve a la aplicación e intenta iniciar sesión de nuevo.',
      code: 'Código de error: {{code}}',
    },
    signOut: {
      title: '¿Quieres cerrar sesión?',
      body: 'Una aplicación ha pedido cerrar tu sesión. Al cerrarla, se cierra tu sesión en este navegador para todas las aplicaciones que usan tu cuenta.',
      confirm: 'Cerrar sesión',
      stay: 'Mantener la sesión iniciada',
      done: 'Has cerrado sesión',
      close: 'Ya puedes cerrar esta página.',
    },
    device: {
      title: 'Iniciar sesión en un dispositivo',
      enter: 'Introduce el código que muestra tu dispositivo.',
      code: 'Código',
      continue: 'Continuar',
      wrongCode: 'Este código no existe. Compruébalo y vuelve a intentarlo.',
      expired: 'Este código ha caducado. Vuelve a empezar en tu dispositivo.',
      used: 'Este código ya se ha usado. Vuelve a empezar en tu dispositivo.',
      aborted: 'Se ha cancelado el inicio de sesión en el dispositivo.',
      error: 'Algo ha fallado. Vuelve a empezar en tu dispositivo.',
      tooMany: 'Demasiados intentos. Vuelve a intentarlo dentro de unos minutos.',
      confirmTitle: '¿Iniciar sesión en {{app}}?',
      confirmBody:
        '{{app}} pide iniciar sesión con tu cuenta. Continúa solo si tu dispositivo muestra este código:',
      notYou: 'Si no has sido tú, elige Cancelar.',
      confirm: 'Iniciar sesión',
      cancel: 'Cancelar',
      doneTitle: 'Tu dispositivo ha iniciado sesión',
      doneBody: 'Ya puedes cerrar esta página y volver a {{app}}.',
    },
  },
  pt: {
    reset: {
      subject: 'Redefina sua senha da {{brand}}',
      greeting: 'Olá, {{name}},',
      body: 'Recebemos uma solicitação para redefinir a senha da sua conta da {{brand}} na equipe {{team}}.',
      action: 'Escolher uma nova senha',
      expiry: 'O link funciona uma única vez e expira em uma hora.',
      ignore: 'Se você não fez esta solicitação, ignore este e-mail: sua senha continua a mesma.',
    },
    emailCode: {
      subject: '{{code}} é o seu código de login do {{brand}}',
      greeting: 'Olá, {{name}},',
      body: 'Use este código para entrar na equipe {{team}}:',
      action: 'Entrar',
      expiry: 'O código funciona uma vez e expira em dez minutos.',
      browser:
        'O botão só faz login no navegador em que você pediu o código; em outro navegador, digite o código.',
      ignore: 'Se você não pediu para entrar, ignore este e-mail: ninguém entra sem este código.',
    },
    signUp: {
      subject: '{{code}} é o seu código para criar {{team}} no {{brand}}',
      greeting: 'Olá, {{name}},',
      body: 'Digite este código para confirmar seu endereço de e-mail e criar a equipe {{team}}:',
      action: 'Confirmar e continuar',
      expiry: 'O código e o botão funcionam uma única vez e expiram em dez minutos.',
      ignore: 'Se você não pediu para criar uma equipe, ignore este e-mail: nada é criado sem este código.',
    },
    changed: {
      subject: 'Sua senha da {{brand}} foi alterada',
      greeting: 'Olá, {{name}},',
      body: 'A senha da sua conta da {{brand}} na equipe {{team}} foi alterada em {{date}}. Todas as suas outras sessões foram encerradas.',
      warning: 'Se não foi você quem alterou, redefina sua senha agora e avise seu administrador.',
    },
    invite: {
      subject: '{{inviter}} convidou você para {{team}} na {{brand}}',
      greeting: 'Olá,',
      body: '{{inviter}} ({{inviterEmail}}) convidou você para participar da equipe {{team}} na {{brand}}.',
      action: 'Aceitar o convite',
      expiry: 'O link funciona uma única vez e expira em {{date}}.',
      ignore: 'Se você não esperava este convite, ignore este e-mail.',
    },
    setup: {
      subject: '{{owner}} pede que você configure o login único de {{team}} na {{brand}}',
      greeting: 'Olá,',
      body: '{{owner}} ({{ownerEmail}}) pede que você verifique os domínios de e-mail da sua empresa e conecte o seu provedor de identidade à equipe {{team}} na {{brand}}. Você não precisa de uma conta: o link abre as telas de configuração.',
      action: 'Abrir a configuração',
      expiry:
        'O link só funciona no primeiro navegador que o abrir e expira em {{date}}. Se ele parar de funcionar, peça um novo a {{owner}}.',
      ignore: 'Se você não esperava este e-mail, ignore-o e avise {{owner}}.',
    },
    notice: {
      greeting: 'Olá, {{name}},',
      warning: 'Se não foi você, altere sua senha agora e avise seu administrador.',
      twoStepOn: {
        subject: 'O login em duas etapas está ativado na sua conta {{brand}}',
        body: 'O login em duas etapas foi ativado na sua conta {{brand}} da equipe {{team}} em {{date}}. Agora o login também pede um código do seu aplicativo autenticador.',
      },
      twoStepOff: {
        subject: 'O login em duas etapas está desativado na sua conta {{brand}}',
        body: 'O login em duas etapas foi desativado na sua conta {{brand}} da equipe {{team}} em {{date}}. Seus códigos de recuperação não funcionam mais.',
      },
      recoveryUsed: {
        subject: 'Um código de recuperação foi usado na sua conta {{brand}}',
        body: 'Um código de recuperação foi usado para entrar na sua conta {{brand}} da equipe {{team}} em {{date}}. Códigos de recuperação não usados: {{left}}.',
      },
      passkeyAdded: {
        subject: 'Uma chave de acesso foi adicionada à sua conta {{brand}}',
        body: 'A chave de acesso “{{passkey}}” foi adicionada à sua conta {{brand}} da equipe {{team}} em {{date}}. Ela já pode ser usada para entrar.',
      },
    },
    newDevice: {
      subject: 'Novo início de sessão na sua conta {{brand}}',
      greeting: 'Olá, {{name}},',
      body: 'Foi iniciada uma sessão na sua conta {{brand}} da equipa {{team}} a partir de um navegador que nunca tinha sido usado: {{device}}, em {{date}}.',
      action: 'Ver as suas sessões',
      warning: 'Se não foi você, termine essa sessão e altere a sua palavra-passe agora.',
    },
    emailConfirm: {
      subject: 'Confirme o seu novo endereço de e-mail {{brand}}',
      greeting: 'Olá, {{name}},',
      body: 'Confirme que {{email}} é o novo endereço de e-mail da sua conta {{brand}} na equipa {{team}}.',
      action: 'Confirmar o novo endereço',
      expiry: 'A ligação funciona uma vez e expira dentro de uma hora.',
      ignore: 'Se não pediu isto, ignore este e-mail: nada muda.',
    },
    emailNotice: {
      subject: 'O seu endereço de e-mail {{brand}} vai ser alterado',
      greeting: 'Olá, {{name}},',
      body: 'Foi pedido que o endereço de e-mail da sua conta {{brand}} na equipa {{team}} passe a ser {{email}}. Muda assim que o novo endereço for confirmado.',
      action: 'Anular esta alteração',
      warning:
        'Se não foi você, anule a alteração com esta ligação (funciona durante 7 dias) e altere a sua palavra-passe.',
    },
    domainLost: {
      subject: 'O domínio {{domain}} não está mais verificado para {{team}}',
      greeting: 'Olá, {{name}},',
      body: 'O registro DNS que comprova que {{domain}} pertence à equipe {{team}} está ausente há três dias, então a {{brand}} não considera mais o domínio verificado e o login por esse domínio foi desativado. Os membros mantêm suas contas.',
      again:
        'Para verificá-lo de novo, publique o registro TXT {{record}} e verifique o domínio nas Configurações da equipe.',
    },
    streamDisabled: {
      subject: 'O envio de eventos para {{endpoint}} foi desativado para {{team}}',
      greeting: 'Olá, {{name}},',
      body: 'Há um dia, {{endpoint}} não aceita os eventos da equipe {{team}}, então a {{brand}} parou de enviá-los para lá. Nenhum evento fica na fila enquanto ele estiver desativado.',
      again:
        'Quando o endpoint voltar a funcionar, retome-o na página Envio de eventos das Configurações da equipe: os eventos que ele perdeu antes de ser desativado são enviados primeiro.',
    },
    joinCode: {
      subject: '{{code}} é o seu código para entrar na equipe {{team}}',
      greeting: 'Olá, {{name}},',
      body: 'Digite este código para confirmar seu pedido para entrar na equipe {{team}} na {{brand}}:',
      expiry: 'O código funciona uma única vez e expira em dez minutos.',
      ignore: 'Se você não fez esse pedido, ignore este e-mail: nada vai acontecer.',
    },
    joinApproved: {
      subject: 'Boas-vindas à equipe {{team}} na {{brand}}',
      greeting: 'Olá, {{name}},',
      body: 'Seu pedido para entrar na equipe {{team}} na {{brand}} foi aceito. Escolha uma senha para entrar.',
      action: 'Entrar na equipe {{team}}',
      expiry: 'O link funciona uma única vez e expira em {{date}}.',
      ignore: 'Se você não fez esse pedido, ignore este e-mail.',
    },
    joinDeclined: {
      subject: 'Seu pedido para entrar na equipe {{team}}',
      greeting: 'Olá, {{name}},',
      body: 'Seu pedido para entrar na equipe {{team}} na {{brand}} não foi aceito. Se você acha que é um engano, fale com o administrador da equipe.',
    },
    footer: 'Este e-mail foi enviado pelo serviço de contas da {{brand}}. Não responda a esta mensagem.',
    policy: {
      tooShort: 'A senha deve ter pelo menos {{min}} caracteres.',
      tooLong: 'A senha deve ter no máximo {{max}} caracteres.',
      sameAsEmail: 'A senha não pode ser o seu endereço de e-mail.',
      common: 'Esta senha é muito comum. Escolha uma mais difícil de adivinhar.',
      breached:
        'Esta senha apareceu em um vazamento de dados, por isso os invasores a tentam primeiro. Escolha outra.',
    },
    resetInvalid: 'Este link de redefinição não é mais válido.',
    resetMismatch: 'Este link de redefinição não pertence a esta equipe.',
    confirmMismatch: 'As senhas não coincidem.',
    signInRefused: {
      title: 'Não foi possível continuar com o login',
      retry: 'Volte para o aplicativo e tente entrar de novo.',
      code: 'Código do erro: {{code}}',
    },
    signOut: {
      title: 'Você quer sair?',
      body: 'Um aplicativo pediu para encerrar sua sessão. Ao sair, sua sessão neste navegador é encerrada em todos os aplicativos que usam sua conta.',
      confirm: 'Sair',
      stay: 'Continuar conectado',
      done: 'Você saiu da sua conta',
      close: 'Você já pode fechar esta página.',
    },
    device: {
      title: 'Entrar em um dispositivo',
      enter: 'Digite o código exibido no seu dispositivo.',
      code: 'Código',
      continue: 'Continuar',
      wrongCode: 'Esse código não existe. Confira e tente de novo.',
      expired: 'Esse código expirou. Comece de novo no seu dispositivo.',
      used: 'Esse código já foi usado. Comece de novo no seu dispositivo.',
      aborted: 'O login no dispositivo foi cancelado.',
      error: 'Algo deu errado. Comece de novo no seu dispositivo.',
      tooMany: 'Muitas tentativas. Tente de novo em alguns minutos.',
      confirmTitle: 'Entrar no {{app}}?',
      confirmBody:
        'O {{app}} pede para entrar com a sua conta. Só continue se o seu dispositivo mostrar este código:',
      notYou: 'Se não foi você que pediu, escolha Cancelar.',
      confirm: 'Entrar',
      cancel: 'Cancelar',
      doneTitle: 'Seu dispositivo está conectado',
      doneBody: 'Você já pode fechar esta página e voltar para o {{app}}.',
    },
  },
  de: {
    reset: {
      subject: 'Setzen Sie Ihr {{brand}}-Passwort zurück',
      greeting: 'Hallo {{name}},',
      body: 'Wir haben eine Anfrage erhalten, das Passwort Ihres {{brand}}-Kontos im Team {{team}} zurückzusetzen.',
      action: 'Neues Passwort festlegen',
      expiry: 'Der Link funktioniert nur einmal und läuft in einer Stunde ab.',
      ignore:
        'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail – Ihr Passwort bleibt unverändert.',
    },
    emailCode: {
      subject: '{{code}} ist Ihr Anmeldecode für {{brand}}',
      greeting: 'Hallo {{name}},',
      body: 'Mit diesem Code melden Sie sich beim Team {{team}} an:',
      action: 'Anmelden',
      expiry: 'Der Code gilt einmal und läuft in zehn Minuten ab.',
      browser:
        'Die Schaltfläche meldet Sie nur in dem Browser an, in dem Sie den Code angefordert haben; geben Sie in einem anderen Browser stattdessen den Code ein.',
      ignore:
        'Wenn Sie sich nicht anmelden wollten, ignorieren Sie diese E-Mail: Ohne diesen Code kann sich niemand anmelden.',
    },
    signUp: {
      subject: '{{code}} ist Ihr Code, um {{team}} bei {{brand}} anzulegen',
      greeting: 'Hallo {{name}},',
      body: 'Geben Sie diesen Code ein, um Ihre E-Mail-Adresse zu bestätigen und das Team {{team}} anzulegen:',
      action: 'Bestätigen und weiter',
      expiry: 'Code und Schaltfläche funktionieren einmal und laufen in zehn Minuten ab.',
      ignore:
        'Wenn Sie kein Team anlegen wollten, ignorieren Sie diese E-Mail: Ohne diesen Code wird nichts angelegt.',
    },
    changed: {
      subject: 'Ihr {{brand}}-Passwort wurde geändert',
      greeting: 'Hallo {{name}},',
      body: 'Das Passwort Ihres {{brand}}-Kontos im Team {{team}} wurde am {{date}} geändert. Alle Ihre anderen Sitzungen wurden abgemeldet.',
      warning:
        'Wenn Sie es nicht selbst geändert haben, setzen Sie Ihr Passwort jetzt zurück und informieren Sie Ihre Administration.',
    },
    invite: {
      subject: '{{inviter}} hat Sie zu {{team}} bei {{brand}} eingeladen',
      greeting: 'Hallo,',
      body: '{{inviter}} ({{inviterEmail}}) hat Sie eingeladen, dem Team {{team}} bei {{brand}} beizutreten.',
      action: 'Einladung annehmen',
      expiry: 'Der Link funktioniert nur einmal und läuft am {{date}} ab.',
      ignore: 'Wenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese E-Mail.',
    },
    setup: {
      subject: '{{owner}} bittet Sie, Single Sign-on für {{team}} bei {{brand}} einzurichten',
      greeting: 'Hallo,',
      body: '{{owner}} ({{ownerEmail}}) bittet Sie, die E-Mail-Domains Ihres Unternehmens zu verifizieren und Ihren Identitätsanbieter mit dem Team {{team}} bei {{brand}} zu verbinden. Sie brauchen kein Konto: Der Link öffnet die Einrichtung.',
      action: 'Einrichtung öffnen',
      expiry:
        'Der Link funktioniert nur in dem Browser, der ihn zuerst öffnet, und läuft am {{date}} ab. Wenn er nicht mehr funktioniert, bitten Sie {{owner}} um einen neuen.',
      ignore:
        'Wenn Sie diese E-Mail nicht erwartet haben, ignorieren Sie sie und sagen Sie {{owner}} Bescheid.',
    },
    notice: {
      greeting: 'Hallo {{name}},',
      warning:
        'Falls Sie das nicht waren, ändern Sie jetzt Ihr Passwort und informieren Sie Ihren Administrator.',
      twoStepOn: {
        subject: 'Die Anmeldung in zwei Schritten ist für Ihr {{brand}}-Konto aktiviert',
        body: 'Die Anmeldung in zwei Schritten wurde am {{date}} für Ihr {{brand}}-Konto im Team {{team}} aktiviert. Bei der Anmeldung wird jetzt auch ein Code aus Ihrer Authenticator-App abgefragt.',
      },
      twoStepOff: {
        subject: 'Die Anmeldung in zwei Schritten ist für Ihr {{brand}}-Konto deaktiviert',
        body: 'Die Anmeldung in zwei Schritten wurde am {{date}} für Ihr {{brand}}-Konto im Team {{team}} deaktiviert. Ihre Wiederherstellungscodes gelten nicht mehr.',
      },
      recoveryUsed: {
        subject: 'Für Ihr {{brand}}-Konto wurde ein Wiederherstellungscode verwendet',
        body: 'Am {{date}} wurde mit einem Wiederherstellungscode eine Anmeldung bei Ihrem {{brand}}-Konto im Team {{team}} durchgeführt. Verbleibende Wiederherstellungscodes: {{left}}.',
      },
      passkeyAdded: {
        subject: 'Ihrem {{brand}}-Konto wurde ein Passkey hinzugefügt',
        body: 'Der Passkey „{{passkey}}“ wurde am {{date}} Ihrem {{brand}}-Konto im Team {{team}} hinzugefügt. Er kann jetzt zur Anmeldung verwendet werden.',
      },
    },
    newDevice: {
      subject: 'Neue Anmeldung bei Ihrem {{brand}}-Konto',
      greeting: 'Hallo {{name}},',
      body: 'Bei Ihrem {{brand}}-Konto im Team {{team}} hat sich jemand mit einem bisher nicht verwendeten Browser angemeldet: {{device}}, am {{date}}.',
      action: 'Sitzungen ansehen',
      warning: 'Wenn Sie das nicht waren, beenden Sie diese Sitzung und ändern Sie sofort Ihr Passwort.',
    },
    emailConfirm: {
      subject: 'Bestätigen Sie Ihre neue {{brand}}-E-Mail-Adresse',
      greeting: 'Hallo {{name}},',
      body: 'Bestätigen Sie, dass {{email}} die neue E-Mail-Adresse Ihres {{brand}}-Kontos im Team {{team}} ist.',
      action: 'Neue Adresse bestätigen',
      expiry: 'Der Link funktioniert einmal und läuft in einer Stunde ab.',
      ignore: 'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Es ändert sich nichts.',
    },
    emailNotice: {
      subject: 'Ihre {{brand}}-E-Mail-Adresse wird geändert',
      greeting: 'Hallo {{name}},',
      body: 'Es wurde beantragt, die E-Mail-Adresse Ihres {{brand}}-Kontos im Team {{team}} in {{email}} zu ändern. Sie ändert sich, sobald die neue Adresse bestätigt ist.',
      action: 'Änderung rückgängig machen',
      warning:
        'Wenn Sie das nicht waren, machen Sie die Änderung mit diesem Link rückgängig (7 Tage gültig) und ändern Sie Ihr Passwort.',
    },
    domainLost: {
      subject: 'Die Domain {{domain}} ist für {{team}} nicht mehr verifiziert',
      greeting: 'Hallo {{name}},',
      body: 'Der DNS-Eintrag, der belegt, dass {{domain}} zum Team {{team}} gehört, fehlt seit drei Tagen. {{brand}} behandelt die Domain deshalb nicht mehr als verifiziert, und die Anmeldung über diese Domain ist ausgeschaltet. Die Mitglieder behalten ihre Konten.',
      again:
        'Um sie erneut zu verifizieren, veröffentlichen Sie den TXT-Eintrag {{record}} und verifizieren Sie die Domain in den Teameinstellungen.',
    },
    streamDisabled: {
      subject: 'Das Event-Streaming an {{endpoint}} ist für {{team}} ausgeschaltet',
      greeting: 'Hallo {{name}},',
      body: 'Seit einem Tag nimmt {{endpoint}} die Ereignisse des Teams {{team}} nicht an, deshalb sendet {{brand}} sie nicht mehr dorthin. Solange es ausgeschaltet ist, werden keine Ereignisse dafür gesammelt.',
      again:
        'Sobald der Endpunkt wieder funktioniert, setzen Sie ihn auf der Seite Event-Streaming in den Teameinstellungen fort: Die Ereignisse, die er vor dem Ausschalten verpasst hat, werden zuerst gesendet.',
    },
    joinCode: {
      subject: '{{code}} ist Ihr Code für den Beitritt zu {{team}}',
      greeting: 'Hallo {{name}},',
      body: 'Geben Sie diesen Code ein, um Ihre Anfrage zum Beitritt zum Team {{team}} bei {{brand}} zu bestätigen:',
      expiry: 'Der Code gilt einmal und läuft in zehn Minuten ab.',
      ignore: 'Falls Sie das nicht angefragt haben, ignorieren Sie diese E-Mail: Es passiert nichts.',
    },
    joinApproved: {
      subject: 'Willkommen bei {{team}} auf {{brand}}',
      greeting: 'Hallo {{name}},',
      body: 'Ihre Anfrage zum Beitritt zum Team {{team}} bei {{brand}} wurde angenommen. Wählen Sie ein Passwort, um sich anzumelden.',
      action: '{{team}} beitreten',
      expiry: 'Der Link gilt einmal und läuft am {{date}} ab.',
      ignore: 'Falls Sie das nicht angefragt haben, ignorieren Sie diese E-Mail.',
    },
    joinDeclined: {
      subject: 'Ihre Anfrage zum Beitritt zu {{team}}',
      greeting: 'Hallo {{name}},',
      body: 'Ihre Anfrage zum Beitritt zum Team {{team}} bei {{brand}} wurde nicht angenommen. Wenn Sie das für einen Irrtum halten, wenden Sie sich an die Administration des Teams.',
    },
    footer: 'Diese E-Mail wurde vom {{brand}}-Kontodienst gesendet. Bitte antworten Sie nicht darauf.',
    policy: {
      tooShort: 'Das Passwort muss mindestens {{min}} Zeichen lang sein.',
      tooLong: 'Das Passwort darf höchstens {{max}} Zeichen lang sein.',
      sameAsEmail: 'Das Passwort darf nicht Ihre E-Mail-Adresse sein.',
      common: 'Dieses Passwort ist zu verbreitet. Wählen Sie eines, das schwerer zu erraten ist.',
      breached:
        'Dieses Passwort ist in einem Datenleck aufgetaucht, daher probieren Angreifer es zuerst. Wählen Sie ein anderes.',
    },
    resetInvalid: 'Dieser Link zum Zurücksetzen ist nicht mehr gültig.',
    resetMismatch: 'Dieser Link zum Zurücksetzen gehört nicht zu diesem Team.',
    confirmMismatch: 'Die Passwörter stimmen nicht überein.',
    signInRefused: {
      title: 'Die Anmeldung kann nicht fortgesetzt werden',
      retry: 'Kehren Sie zur App zurück und melden Sie sich erneut an.',
      code: 'Fehlercode: {{code}}',
    },
    signOut: {
      title: 'Möchten Sie sich abmelden?',
      body: 'Eine App möchte Sie abmelden. Die Abmeldung beendet Ihre Sitzung in diesem Browser für alle Apps, die sich mit Ihrem Konto anmelden.',
      confirm: 'Abmelden',
      stay: 'Angemeldet bleiben',
      done: 'Sie sind abgemeldet',
      close: 'Sie können diese Seite jetzt schließen.',
    },
    device: {
      title: 'Auf einem Gerät anmelden',
      enter: 'Geben Sie den Code ein, den Ihr Gerät anzeigt.',
      code: 'Code',
      continue: 'Weiter',
      wrongCode: 'Dieser Code ist unbekannt. Prüfen Sie ihn und versuchen Sie es erneut.',
      expired: 'Dieser Code ist abgelaufen. Beginnen Sie auf Ihrem Gerät neu.',
      used: 'Dieser Code wurde bereits verwendet. Beginnen Sie auf Ihrem Gerät neu.',
      aborted: 'Die Anmeldung auf dem Gerät wurde abgebrochen.',
      error: 'Etwas ist schiefgegangen. Beginnen Sie auf Ihrem Gerät neu.',
      tooMany: 'Zu viele Versuche. Versuchen Sie es in ein paar Minuten erneut.',
      confirmTitle: 'Bei {{app}} anmelden?',
      confirmBody:
        '{{app}} möchte sich mit Ihrem Konto anmelden. Fahren Sie nur fort, wenn Ihr Gerät diesen Code anzeigt:',
      notYou: 'Wenn Sie das nicht waren, wählen Sie „Abbrechen“.',
      confirm: 'Anmelden',
      cancel: 'Abbrechen',
      doneTitle: 'Ihr Gerät ist angemeldet',
      doneBody: 'Sie können diese Seite schließen und zu {{app}} zurückkehren.',
    },
  },
  ja: {
    reset: {
      subject: '{{brand}} のパスワードを再設定してください',
      greeting: '{{name}} 様',
      body: 'チーム {{team}} の {{brand}} アカウントのパスワード再設定のリクエストを受け付けました。',
      action: '新しいパスワードを設定する',
      expiry: 'このリンクは 1 回だけ使用でき、1 時間で有効期限が切れます。',
      ignore: 'お心当たりがない場合は、このメールを無視してください。パスワードは変更されません。',
    },
    emailCode: {
      subject: '{{brand}} のサインインコード: {{code}}',
      greeting: '{{name}} 様',
      body: 'チーム {{team}} にサインインするには、次のコードを使用してください。',
      action: 'サインイン',
      expiry: 'コードは 1 回だけ使用でき、10 分で期限切れになります。',
      browser:
        'ボタンは、コードを要求したブラウザーでのみサインインします。別のブラウザーでは、コードを入力してください。',
      ignore:
        'サインインを要求していない場合は、このメールを無視してください。このコードがなければ誰もサインインできません。',
    },
    signUp: {
      subject: '{{brand}} でチーム {{team}} を作成するためのコード: {{code}}',
      greeting: '{{name}} 様',
      body: '次のコードを入力してメールアドレスを確認し、チーム {{team}} を作成してください。',
      action: '確認して続行',
      expiry: 'コードとボタンは 1 回だけ使用でき、10 分で有効期限が切れます。',
      ignore:
        'チームの作成を依頼していない場合は、このメールを無視してください。このコードがなければ何も作成されません。',
    },
    changed: {
      subject: '{{brand}} のパスワードが変更されました',
      greeting: '{{name}} 様',
      body: 'チーム {{team}} の {{brand}} アカウントのパスワードが {{date}} に変更されました。ほかのすべてのセッションはサインアウトされました。',
      warning: 'お心当たりがない場合は、今すぐパスワードを再設定し、管理者に連絡してください。',
    },
    invite: {
      subject: '{{inviter}} さんから {{brand}} のチーム {{team}} への招待が届いています',
      greeting: 'こんにちは。',
      body: '{{inviter}} さん（{{inviterEmail}}）から、{{brand}} のチーム {{team}} への参加の招待が届いています。',
      action: '招待を承諾する',
      expiry: 'このリンクは 1 回だけ使用でき、{{date}} に有効期限が切れます。',
      ignore: 'この招待にお心当たりがない場合は、このメールを無視してください。',
    },
    setup: {
      subject: '{{owner}} さんから {{brand}} のチーム {{team}} のシングルサインオン設定の依頼が届いています',
      greeting: 'こんにちは。',
      body: '{{owner}} さん（{{ownerEmail}}）から、会社のメールドメインの確認と、ID プロバイダーと {{brand}} のチーム {{team}} との接続を依頼されています。アカウントは不要です。リンクを開くと設定画面が表示されます。',
      action: '設定を開く',
      expiry:
        'このリンクは最初に開いたブラウザーでのみ使用でき、{{date}} に有効期限が切れます。使えなくなった場合は、{{owner}} さんに新しいリンクを依頼してください。',
      ignore: 'このメールにお心当たりがない場合は、無視して {{owner}} さんにお知らせください。',
    },
    notice: {
      greeting: '{{name}} 様',
      warning: 'お心当たりがない場合は、すぐにパスワードを変更し、管理者にお知らせください。',
      twoStepOn: {
        subject: '{{brand}} アカウントの 2 段階認証が有効になりました',
        body: '{{date}} に、チーム {{team}} の {{brand}} アカウントで 2 段階認証が有効になりました。今後のサインインでは、認証アプリのコードも必要です。',
      },
      twoStepOff: {
        subject: '{{brand}} アカウントの 2 段階認証が無効になりました',
        body: '{{date}} に、チーム {{team}} の {{brand}} アカウントで 2 段階認証が無効になりました。リカバリーコードは使えなくなりました。',
      },
      recoveryUsed: {
        subject: '{{brand}} アカウントでリカバリーコードが使用されました',
        body: '{{date}} に、リカバリーコードを使ってチーム {{team}} の {{brand}} アカウントにサインインしました。未使用のリカバリーコード: {{left}} 個。',
      },
      passkeyAdded: {
        subject: '{{brand}} アカウントにパスキーが追加されました',
        body: '{{date}} に、チーム {{team}} の {{brand}} アカウントにパスキー「{{passkey}}」が追加されました。このパスキーでサインインできます。',
      },
    },
    newDevice: {
      subject: '{{brand}} アカウントへの新しいサインイン',
      greeting: '{{name}} 様',
      body: 'チーム {{team}} の {{brand}} アカウントに、これまで使われていないブラウザーからサインインがありました: {{device}}（{{date}}）。',
      action: 'セッションを確認',
      warning: '心当たりがない場合は、そのセッションを終了し、すぐにパスワードを変更してください。',
    },
    emailConfirm: {
      subject: '{{brand}} の新しいメールアドレスを確認してください',
      greeting: '{{name}} 様',
      body: '{{email}} がチーム {{team}} の {{brand}} アカウントの新しいメールアドレスであることを確認してください。',
      action: '新しいアドレスを確認',
      expiry: 'このリンクは 1 回だけ使用でき、1 時間で期限切れになります。',
      ignore: '心当たりがない場合は、このメールを無視してください。何も変更されません。',
    },
    emailNotice: {
      subject: '{{brand}} のメールアドレスが変更されようとしています',
      greeting: '{{name}} 様',
      body: 'チーム {{team}} の {{brand}} アカウントのメールアドレスを {{email}} に変更する依頼がありました。新しいアドレスが確認されると変更されます。',
      action: 'この変更を取り消す',
      warning:
        '心当たりがない場合は、このリンク (7 日間有効) で変更を取り消し、パスワードを変更してください。',
    },
    domainLost: {
      subject: 'ドメイン {{domain}} は {{team}} の確認済みドメインではなくなりました',
      greeting: '{{name}} 様',
      body: '{{domain}} がチーム {{team}} のものであることを示す DNS レコードが 3 日間見つからないため、{{brand}} はこのドメインを確認済みとして扱わなくなり、このドメインによるサインインはオフになりました。メンバーのアカウントはそのまま残ります。',
      again:
        'もう一度確認するには、TXT レコード {{record}} を公開してから、チーム設定でドメインを確認してください。',
    },
    streamDisabled: {
      subject: '{{team}} の {{endpoint}} へのイベント ストリーミングがオフになりました',
      greeting: '{{name}} 様',
      body: '{{endpoint}} が 1 日にわたってチーム {{team}} のイベントを受け付けなかったため、{{brand}} はそこへの送信を停止しました。オフの間、このエンドポイント向けのイベントは保管されません。',
      again:
        'エンドポイントが復旧したら、チーム設定の「イベント ストリーミング」ページで再開してください。オフになる前に届かなかったイベントから順に送信されます。',
    },
    joinCode: {
      subject: '{{team}} への参加コード: {{code}}',
      greeting: '{{name}} 様',
      body: '{{brand}} のチーム {{team}} への参加リクエストを確認するため、次のコードを入力してください:',
      expiry: 'このコードは 1 回限り有効で、10 分後に期限切れになります。',
      ignore: 'お心当たりがない場合は、このメールを無視してください。何も起こりません。',
    },
    joinApproved: {
      subject: '{{brand}} の {{team}} へようこそ',
      greeting: '{{name}} 様',
      body: '{{brand}} のチーム {{team}} への参加リクエストが承認されました。パスワードを設定してサインインしてください。',
      action: '{{team}} に参加',
      expiry: 'このリンクは 1 回限り有効で、{{date}} に期限切れになります。',
      ignore: 'お心当たりがない場合は、このメールを無視してください。',
    },
    joinDeclined: {
      subject: '{{team}} への参加リクエストについて',
      greeting: '{{name}} 様',
      body: '{{brand}} のチーム {{team}} への参加リクエストは承認されませんでした。誤りと思われる場合は、チームの管理者にお問い合わせください。',
    },
    footer:
      'このメールは {{brand}} アカウント サービスから送信されています。このメールには返信しないでください。',
    policy: {
      tooShort: 'パスワードは {{min}} 文字以上にしてください。',
      tooLong: 'パスワードは {{max}} 文字以下にしてください。',
      sameAsEmail: 'メールアドレスをパスワードとして使用することはできません。',
      common:
        'このパスワードはよく使われているため使用できません。推測されにくいパスワードを選んでください。',
      breached:
        'このパスワードは過去のデータ漏えいで見つかっているため、攻撃者が最初に試します。別のパスワードを選んでください。',
    },
    resetInvalid: 'この再設定リンクは無効になっています。',
    resetMismatch: 'この再設定リンクはこのチームのものではありません。',
    confirmMismatch: 'パスワードが一致しません。',
    signInRefused: {
      title: 'サインインを続行できません',
      retry: 'アプリに戻って、もう一度サインインしてください。',
      code: 'エラーコード: {{code}}',
    },
    signOut: {
      title: 'サインアウトしますか？',
      body: 'アプリからサインアウトのリクエストがありました。サインアウトすると、このブラウザーでのセッションが終了し、このアカウントを使うすべてのアプリからサインアウトされます。',
      confirm: 'サインアウト',
      stay: 'サインインしたままにする',
      done: 'サインアウトしました',
      close: 'このページは閉じてかまいません。',
    },
    device: {
      title: 'デバイスでサインイン',
      enter: 'デバイスに表示されているコードを入力してください。',
      code: 'コード',
      continue: '続行',
      wrongCode: 'このコードは見つかりません。確認して、もう一度お試しください。',
      expired: 'このコードは有効期限が切れています。デバイスでもう一度やり直してください。',
      used: 'このコードはすでに使用されています。デバイスでもう一度やり直してください。',
      aborted: 'デバイスでのサインインはキャンセルされました。',
      error: '問題が発生しました。デバイスでもう一度やり直してください。',
      tooMany: '試行回数が多すぎます。数分後にもう一度お試しください。',
      confirmTitle: '{{app}} にサインインしますか？',
      confirmBody:
        '{{app}} があなたのアカウントでのサインインを求めています。デバイスに次のコードが表示されている場合のみ続行してください。',
      notYou: '心当たりがない場合は［キャンセル］を選んでください。',
      confirm: 'サインイン',
      cancel: 'キャンセル',
      doneTitle: 'デバイスでサインインしました',
      doneBody: 'このページを閉じて {{app}} に戻ってください。',
    },
  },
  da: {
    reset: {
      subject: 'Nulstil din adgangskode til {{brand}}',
      greeting: 'Hej {{name}}',
      body: 'Vi har modtaget en anmodning om at nulstille adgangskoden til din {{brand}}-konto i teamet {{team}}.',
      action: 'Vælg en ny adgangskode',
      expiry: 'Linket virker én gang og udløber om en time.',
      ignore:
        'Hvis det ikke var dig, der bad om det, kan du se bort fra denne e-mail – din adgangskode forbliver den samme.',
    },
    emailCode: {
      subject: '{{code}} er din loginkode til {{brand}}',
      greeting: 'Hej {{name}}',
      body: 'Brug denne kode til at logge ind på teamet {{team}}:',
      action: 'Log ind',
      expiry: 'Koden virker én gang og udløber om ti minutter.',
      browser:
        'Knappen logger kun ind i den browser, hvor du bad om koden; i en anden browser skal du i stedet skrive koden.',
      ignore:
        'Hvis du ikke bad om at logge ind, kan du se bort fra denne e-mail: ingen kan logge ind uden denne kode.',
    },
    signUp: {
      subject: '{{code}} er din kode til at oprette {{team}} på {{brand}}',
      greeting: 'Hej {{name}}',
      body: 'Indtast denne kode for at bekræfte din e-mailadresse og oprette teamet {{team}}:',
      action: 'Bekræft og fortsæt',
      expiry: 'Koden og knappen virker én gang og udløber om ti minutter.',
      ignore:
        'Hvis du ikke har bedt om at oprette et team, kan du se bort fra denne e-mail: intet oprettes uden denne kode.',
    },
    changed: {
      subject: 'Din adgangskode til {{brand}} er ændret',
      greeting: 'Hej {{name}}',
      body: 'Adgangskoden til din {{brand}}-konto i teamet {{team}} blev ændret den {{date}}. Alle dine andre sessioner er logget ud.',
      warning:
        'Hvis det ikke var dig, der ændrede den, skal du nulstille din adgangskode nu og give din administrator besked.',
    },
    invite: {
      subject: '{{inviter}} har inviteret dig til {{team}} hos {{brand}}',
      greeting: 'Hej',
      body: '{{inviter}} ({{inviterEmail}}) har inviteret dig til at blive medlem af teamet {{team}} hos {{brand}}.',
      action: 'Accepter invitationen',
      expiry: 'Linket virker én gang og udløber den {{date}}.',
      ignore: 'Hvis du ikke ventede denne invitation, kan du se bort fra denne e-mail.',
    },
    setup: {
      subject: '{{owner}} beder dig opsætte single sign-on for {{team}} hos {{brand}}',
      greeting: 'Hej',
      body: '{{owner}} ({{ownerEmail}}) beder dig bekræfte virksomhedens e-maildomæner og forbinde jeres identitetsudbyder med teamet {{team}} hos {{brand}}. Du behøver ikke en konto: linket åbner opsætningen.',
      action: 'Åbn opsætningen',
      expiry:
        'Linket virker kun i den første browser, der åbner det, og udløber den {{date}}. Hvis det holder op med at virke, så bed {{owner}} om et nyt.',
      ignore: 'Hvis du ikke ventede denne e-mail, kan du se bort fra den og give {{owner}} besked.',
    },
    notice: {
      greeting: 'Hej {{name}}',
      warning: 'Hvis det ikke var dig, så skift din adgangskode nu, og giv din administrator besked.',
      twoStepOn: {
        subject: 'Totrinslogin er slået til for din {{brand}}-konto',
        body: 'Totrinslogin blev slået til for din {{brand}}-konto i teamet {{team}} den {{date}}. Når du logger ind, skal du nu også angive en kode fra din godkendelsesapp.',
      },
      twoStepOff: {
        subject: 'Totrinslogin er slået fra for din {{brand}}-konto',
        body: 'Totrinslogin blev slået fra for din {{brand}}-konto i teamet {{team}} den {{date}}. Dine gendannelseskoder virker ikke længere.',
      },
      recoveryUsed: {
        subject: 'Der blev brugt en gendannelseskode til din {{brand}}-konto',
        body: 'Der blev brugt en gendannelseskode til at logge ind på din {{brand}}-konto i teamet {{team}} den {{date}}. Ubrugte gendannelseskoder tilbage: {{left}}.',
      },
      passkeyAdded: {
        subject: 'Der blev tilføjet en adgangsnøgle til din {{brand}}-konto',
        body: 'Adgangsnøglen “{{passkey}}” blev tilføjet til din {{brand}}-konto i teamet {{team}} den {{date}}. Den kan nu bruges til at logge ind.',
      },
    },
    newDevice: {
      subject: 'Ny login på din {{brand}}-konto',
      greeting: 'Hej {{name}}',
      body: 'Der blev logget ind på din {{brand}}-konto i teamet {{team}} fra en browser, der ikke er brugt før: {{device}}, den {{date}}.',
      action: 'Se dine sessioner',
      warning: 'Hvis det ikke var dig, så afslut den session og skift din adgangskode nu.',
    },
    emailConfirm: {
      subject: 'Bekræft din nye {{brand}}-e-mailadresse',
      greeting: 'Hej {{name}}',
      body: 'Bekræft, at {{email}} er den nye e-mailadresse for din {{brand}}-konto i teamet {{team}}.',
      action: 'Bekræft den nye adresse',
      expiry: 'Linket virker én gang og udløber om en time.',
      ignore: 'Hvis du ikke har bedt om det, så ignorer denne e-mail: intet ændres.',
    },
    emailNotice: {
      subject: 'Din {{brand}}-e-mailadresse bliver ændret',
      greeting: 'Hej {{name}}',
      body: 'Der er bedt om at ændre e-mailadressen for din {{brand}}-konto i teamet {{team}} til {{email}}. Den ændres, når den nye adresse er bekræftet.',
      action: 'Fortryd ændringen',
      warning:
        'Hvis det ikke var dig, så fortryd ændringen med dette link (virker i 7 dage) og skift din adgangskode.',
    },
    domainLost: {
      subject: 'Domænet {{domain}} er ikke længere bekræftet for {{team}}',
      greeting: 'Hej {{name}}',
      body: 'DNS-posten, der beviser, at {{domain}} tilhører teamet {{team}}, har manglet i tre dage, så {{brand}} betragter ikke længere domænet som bekræftet, og login via domænet er slået fra. Medlemmerne beholder deres konti.',
      again: 'Udgiv TXT-posten {{record}}, og bekræft domænet i Teamindstillinger for at bekræfte det igen.',
    },
    streamDisabled: {
      subject: 'Streaming af hændelser til {{endpoint}} er slået fra for {{team}}',
      greeting: 'Hej {{name}}',
      body: 'I et døgn har {{endpoint}} ikke taget imod hændelserne fra teamet {{team}}, så {{brand}} er holdt op med at sende dem dertil. Der gemmes ingen hændelser til det, mens det er slået fra.',
      again:
        'Når endpointet virker igen, kan du genoptage det på siden Streaming af hændelser i Teamindstillinger: De hændelser, det gik glip af, før det blev slået fra, sendes først.',
    },
    joinCode: {
      subject: '{{code}} er din kode til at blive medlem af {{team}}',
      greeting: 'Hej {{name}}',
      body: 'Indtast denne kode for at bekræfte din anmodning om at blive medlem af teamet {{team}} på {{brand}}:',
      expiry: 'Koden virker én gang og udløber om ti minutter.',
      ignore: 'Hvis du ikke har bedt om det, kan du se bort fra denne e-mail: der sker ingenting.',
    },
    joinApproved: {
      subject: 'Velkommen til {{team}} på {{brand}}',
      greeting: 'Hej {{name}}',
      body: 'Din anmodning om at blive medlem af teamet {{team}} på {{brand}} er godkendt. Vælg en adgangskode for at logge ind.',
      action: 'Bliv medlem af {{team}}',
      expiry: 'Linket virker én gang og udløber den {{date}}.',
      ignore: 'Hvis du ikke har bedt om det, kan du se bort fra denne e-mail.',
    },
    joinDeclined: {
      subject: 'Din anmodning om at blive medlem af {{team}}',
      greeting: 'Hej {{name}}',
      body: 'Din anmodning om at blive medlem af teamet {{team}} på {{brand}} er ikke godkendt. Hvis du mener, det er en fejl, så kontakt teamets administrator.',
    },
    footer: 'Denne e-mail er sendt af {{brand}}s kontotjeneste. Du kan ikke svare på den.',
    policy: {
      tooShort: 'Adgangskoden skal have mindst {{min}} tegn.',
      tooLong: 'Adgangskoden må højst have {{max}} tegn.',
      sameAsEmail: 'Adgangskoden må ikke være din e-mailadresse.',
      common: 'Denne adgangskode er for almindelig. Vælg en, der er sværere at gætte.',
      breached: 'Denne adgangskode er dukket op i et datalæk, så angribere prøver den først. Vælg en anden.',
    },
    resetInvalid: 'Dette nulstillingslink er ikke længere gyldigt.',
    resetMismatch: 'Dette nulstillingslink hører ikke til dette team.',
    confirmMismatch: 'Adgangskoderne er ikke ens.',
    signInRefused: {
      title: 'Login kan ikke fortsætte',
      retry: 'Gå tilbage til appen, og prøv at logge ind igen.',
      code: 'Fejlkode: {{code}}',
    },
    signOut: {
      title: 'Vil du logge ud?',
      body: 'En app har bedt om at logge dig ud. Når du logger ud, slutter din session i denne browser for alle apps, der bruger din konto.',
      confirm: 'Log ud',
      stay: 'Forbliv logget ind',
      done: 'Du er logget ud',
      close: 'Du kan lukke denne side nu.',
    },
    device: {
      title: 'Log ind på en enhed',
      enter: 'Indtast koden, som din enhed viser.',
      code: 'Kode',
      continue: 'Fortsæt',
      wrongCode: 'Koden findes ikke. Tjek den, og prøv igen.',
      expired: 'Koden er udløbet. Start forfra på din enhed.',
      used: 'Koden er allerede brugt. Start forfra på din enhed.',
      aborted: 'Login på enheden blev annulleret.',
      error: 'Noget gik galt. Start forfra på din enhed.',
      tooMany: 'For mange forsøg. Prøv igen om et par minutter.',
      confirmTitle: 'Log ind på {{app}}?',
      confirmBody:
        '{{app}} beder om at logge ind med din konto. Fortsæt kun, hvis din enhed viser denne kode:',
      notYou: 'Hvis det ikke var dig, så vælg Annuller.',
      confirm: 'Log ind',
      cancel: 'Annuller',
      doneTitle: 'Din enhed er logget ind',
      doneBody: 'Du kan lukke denne side og gå tilbage til {{app}}.',
    },
  },
};

/** A dotted path to a text of {@link ServerTexts} (`reset.subject`, `policy.tooShort`…). */
export type TextKey<T = ServerTexts> = {
  [K in keyof T & string]: T[K] extends string ? K : `${K}.${TextKey<T[K]>}`;
}[keyof T & string];

/** The server's own i18next instance: never a global one, all languages in memory from the start. */
const i18n = i18next.createInstance();
void i18n.init({
  initAsync: false,
  resources: Object.fromEntries(LANGUAGES.map((language) => [language, { translation: TEXTS[language] }])),
  // Every language has every text (the type above): no fallback is ever needed.
  fallbackLng: false,
  nsSeparator: false,
  // Mail HTML escapes the whole filled text; a message goes out as JSON.
  interpolation: { escapeValue: false },
});

/** A text in a language, its `{{name}}` placeholders filled from `values`. */
export function serverText(
  language: Language,
  key: TextKey,
  values: Record<string, string | number> = {},
): string {
  return i18n.t(key, { ...values, lng: language });
}
