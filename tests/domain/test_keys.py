"""Keys: the fingerprints in an operator's authorized_keys file."""

from __future__ import annotations


def test_the_fingerprints_of_an_authorized_keys_file_are_those_ssh_shows() -> None:
    import asyncssh

    from wom_tui.domain.keys import fingerprints_in

    one, two = (asyncssh.generate_private_key(kind) for kind in ("ssh-ed25519", "ssh-rsa"))
    text = (f"# operators\n{one.export_public_key().decode()}"
            f'from="192.0.2.0/24",no-pty {two.export_public_key().decode().strip()} root@box\nnot a key line\n')
    assert fingerprints_in(text) == {one.get_fingerprint(), two.get_fingerprint()}
