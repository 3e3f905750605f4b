import { useElement } from '../../ui/element-context';
import { PasswordPanel } from './password-panel';
import { PersonalInfo } from './personal-info';
import { ThirdPartyPanel } from './third-party-panel';
import { usePasswordOptions } from './use-password-options';

/** The manage home (spec §2): personal info, the password panel and the third-party accounts. */
export function InfoSection() {
  const { language } = useElement();
  const [options, reload] = usePasswordOptions(language);
  return (
    <>
      <PersonalInfo />
      <PasswordPanel options={options} reload={reload} />
      {options && options !== 'failed' ? <ThirdPartyPanel options={options} reload={reload} /> : null}
    </>
  );
}
